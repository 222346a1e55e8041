/**
 * @module
 * Where Reasonix keeps its files. This is the only module in src/ that reads the process environment
 * or the OS home/temp directories; everything else receives a `Paths` and an env snapshot.
 */
import { homedir, tmpdir } from "node:os";
import { posix, win32 } from "node:path";

export interface Paths {
  /** The user's own home directory, used to expand `~/` in config paths. */
  userHome: string;
  home: string;
  stateHome: string;
  globalConfigFile: string;
  envFile: string;
  /** Read-only fallbacks, in order; never migrated or rewritten. */
  legacyConfigFiles: string[];
  sessionsDir: string;
  trustFile: string;
  /** OAuth tokens and client registrations of remote MCP servers, one 0600 file per server (mcp/oauth_store.ts). */
  mcpAuthDir: string;
  /** Which config file contents were already warned about (config/warn_once.ts). */
  configWarningsFile: string;
  cacheDir: string;
  /** `REASONIX_HOME` is set: nothing outside it is read. */
  selfContained: boolean;
}

export function processEnv(): Record<string, string> {
  return Deno.env.toObject();
}

/** Reads `name` and removes it from this process's environment, so no child process inherits it. */
export function takeProcessEnv(name: string): string | undefined {
  const value = Deno.env.get(name);
  Deno.env.delete(name);
  return value;
}

/**
 * Sets `name` to `value` while `load` runs, then restores what was there. For libraries that read the
 * environment once, when their modules are first evaluated (React's `NODE_ENV`).
 */
export async function withProcessEnv<T>(name: string, value: string, load: () => Promise<T>): Promise<T> {
  const before = Deno.env.get(name);
  Deno.env.set(name, value);
  try {
    return await load();
  } finally {
    if (before === undefined) Deno.env.delete(name);
    else Deno.env.set(name, before);
  }
}

export function systemTempDir(): string {
  return tmpdir();
}

export function resolvePaths(
  env: Record<string, string | undefined> = processEnv(),
  os: string = Deno.build.os,
): Paths {
  const windows = os === "windows";
  const path = windows ? win32 : posix;
  const userHome = nonEmpty(windows ? env.USERPROFILE : env.HOME) ?? homedir();
  const explicitHome = nonEmpty(env.REASONIX_HOME);
  const selfContained = explicitHome !== undefined;
  const home = explicitHome !== undefined ? path.resolve(explicitHome) : defaultHome(userHome, env, os);
  const stateHome = path.resolve(nonEmpty(env.REASONIX_STATE_HOME) ?? home);
  return {
    userHome,
    home,
    stateHome,
    globalConfigFile: path.join(home, "config.toml"),
    envFile: path.join(home, ".env"),
    legacyConfigFiles: selfContained ? [] : legacyFiles({ userHome, home }, env, os),
    sessionsDir: path.join(stateHome, "sessions"),
    trustFile: path.join(home, "trust.json"),
    mcpAuthDir: path.join(home, "mcp-auth"),
    configWarningsFile: path.join(stateHome, "config-warnings.json"),
    cacheDir: cacheDir(home, userHome, { env, os, selfContained }),
    selfContained,
  };
}

function defaultHome(userHome: string, env: Record<string, string | undefined>, os: string): string {
  if (os === "windows") {
    const appData = nonEmpty(env.APPDATA) ?? win32.join(userHome, "AppData", "Roaming");
    return win32.join(appData, "reasonix");
  }
  return posix.join(userHome, ".reasonix");
}

/** Go Reasonix's older global files, in the order it looks for them (its `config.json` is not read). */
function legacyFiles(
  dirs: { userHome: string; home: string },
  env: Record<string, string | undefined>,
  os: string,
): string[] {
  if (os === "windows") return [];
  const xdgConfig = nonEmpty(env.XDG_CONFIG_HOME) ?? posix.join(dirs.userHome, ".config");
  const files = [posix.join(xdgConfig, "reasonix", "config.toml")];
  if (os === "darwin") {
    files.push(posix.join(dirs.userHome, "Library", "Application Support", "reasonix", "config.toml"));
  }
  files.push(posix.join(dirs.home, "reasonix.toml"));
  return files;
}

function cacheDir(
  home: string,
  userHome: string,
  options: { env: Record<string, string | undefined>; os: string; selfContained: boolean },
): string {
  const { env, os } = options;
  const path = os === "windows" ? win32 : posix;
  const explicit = nonEmpty(env.REASONIX_CACHE_HOME);
  if (explicit !== undefined) return path.resolve(explicit);
  if (options.selfContained) return path.join(home, "cache");
  if (os === "windows") {
    const local = nonEmpty(env.LOCALAPPDATA) ?? win32.join(userHome, "AppData", "Local");
    return win32.join(local, "reasonix", "cache");
  }
  if (os === "darwin") return posix.join(userHome, "Library", "Caches", "reasonix");
  return posix.join(nonEmpty(env.XDG_CACHE_HOME) ?? posix.join(userHome, ".cache"), "reasonix");
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * Where the user invoked Reasonix. `deno task` runs in the directory of deno.json and records the
 * caller's directory in INIT_CWD (npm does the same), so that wins over the process cwd.
 */
export function launchDirectory(): string {
  return Deno.env.get("INIT_CWD") || Deno.cwd();
}
