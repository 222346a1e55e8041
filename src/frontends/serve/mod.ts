/**
 * @module
 * `reasonix serve`: the session model over HTTP and server-sent events. Resolves the address and
 * the auth mode (flags over the user's `[serve]` config; a project file cannot loosen them), refuses
 * an unauthenticated non-loopback address, prints where to open it once, and serves until a signal.
 */
import {
  type AdminContext,
  adminContext,
  type BootOptions,
  loadConfig,
  needsSetup,
  type ServeAuthMode,
  type ServeConfig,
  stopError,
  type StopSignal,
} from "../../control/mod.ts";
import { processEnv } from "../../config/paths.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { baseUrl, checkExposure, type ListenAddress, parseAddr } from "./address.ts";
import { createApp } from "./app.ts";
import { Auth, randomSecret } from "./auth.ts";
import { SessionHub } from "./hub.ts";
import { listen } from "./listen.ts";
import { hashPassword, looksLikeBcrypt, readPassword } from "./password.ts";

export interface ServeOptions {
  boot: Omit<BootOptions, "headless" | "resume" | "switchable">;
  addr?: string;
  auth?: string;
  token?: string;
  passwordHash?: string;
  hashPassword?: boolean;
  /** Written with the bound port once listening (scripts that pass port 0). */
  portFile?: string;
  write: (text: string) => void;
  writeError: (text: string) => void;
  /** Resolves with the stop signal when the server should stop (SIGINT, SIGTERM, SIGHUP). */
  stopped: Promise<StopSignal | void>;
}

/**
 * Serves until `stopped`; returns the error code of the stop signal (cli.ts exits 128 + its number),
 * null when stopped without one.
 */
export async function serveCmd(options: ServeOptions): Promise<string | null> {
  if (options.hashPassword) {
    const password = await readPassword(options.writeError);
    options.write(hashPassword(password) + "\n");
    return null;
  }
  const admin = await adminContext(options.boot.dir);
  const config = await loadConfig({ workspace: admin.workspace, paths: admin.paths });
  const settings = serveSettings(config.serve, options);
  checkExposure(settings.address, settings.auth.mode);
  const auth = new Auth(settings.auth);
  const hub = new SessionHub({ boot: { ...options.boot, paths: admin.paths } });
  try {
    const env = options.boot.env ?? processEnv();
    const parts = { hub, auth, admin, settings, env, behindProxy: config.serve.behindProxy };
    const signal = await serveUntilStopped(options, parts);
    return signal ? stopError(signal).code : null;
  } finally {
    await hub.closeAll();
  }
}

async function serveUntilStopped(
  options: ServeOptions,
  parts: Parts,
): Promise<StopSignal | void> {
  const { hub, auth, admin, settings, env, behindProxy } = parts;
  const app = createApp({
    hub,
    auth,
    admin,
    env,
    guard: { listenHost: settings.address.hostname, behindProxy },
  });
  const server = await listen(app, settings.address);
  const url = baseUrl({ ...settings.address, port: server.port });
  if (options.portFile) await Deno.writeTextFile(options.portFile, `${server.port}\n`);
  options.write(`Reasonix serve on ${url} (auth: ${settings.auth.mode}, workspace: ${admin.workspace})\n`);
  if (await needsSetup({ workspace: admin.workspace, paths: admin.paths, env }).catch(() => false)) {
    options.write("No provider key is set: the web UI opens on provider setup (from this machine only)\n");
  }
  if (settings.generatedToken) options.write(`Open ${url}/?token=${settings.generatedToken}\n`);
  const signal = await options.stopped;
  // Running turns end as a cancel ends them, and record it, before the sessions close.
  await hub.closeAll(signal ?? "SIGINT");
  await server.shutdown();
  return signal;
}

interface Parts {
  hub: SessionHub;
  auth: Auth;
  admin: AdminContext;
  settings: Settings;
  env: Record<string, string>;
  behindProxy: boolean;
}

interface Settings {
  address: ListenAddress;
  auth: { mode: ServeAuthMode; token?: string; passwordHash?: string; behindProxy: boolean };
  generatedToken?: string;
}

/** Flags over `[serve]`; a token is generated when token auth has none. */
export function serveSettings(
  config: ServeConfig,
  flags: Pick<ServeOptions, "addr" | "auth" | "token" | "passwordHash">,
): Settings {
  const address = parseAddr(flags.addr ?? config.addr);
  const mode = authMode(flags.auth ?? config.authMode);
  const behindProxy = config.behindProxy;
  if (mode === "password") {
    const passwordHash = flags.passwordHash ?? config.passwordHash;
    if (!passwordHash || !looksLikeBcrypt(passwordHash)) {
      throw new ReasonixError("usage.bad_value", "Cannot use --auth password without a bcrypt hash", {
        hint:
          "Make one with `reasonix serve --hash-password`, then pass --password-hash or set [serve] password_hash",
      });
    }
    return { address, auth: { mode, passwordHash, behindProxy } };
  }
  if (mode === "none") return { address, auth: { mode, behindProxy } };
  const given = flags.token ?? config.token;
  const token = given ?? randomSecret();
  if (token.length < 16) {
    throw new ReasonixError("usage.bad_value", "Cannot use a token shorter than 16 characters", {
      hint: "Leave --token out and serve generates one",
    });
  }
  return { address, auth: { mode, token, behindProxy }, ...(given ? {} : { generatedToken: token }) };
}

function authMode(value: string): ServeAuthMode {
  if (value === "none" || value === "token" || value === "password") return value;
  throw new ReasonixError(
    "usage.bad_value",
    `Cannot use --auth "${value}": expected none, token or password`,
  );
}
