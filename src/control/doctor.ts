/**
 * @module
 * `reasonix doctor`: what protects tool calls on this machine — the OS sandbox, its network, the
 * private temp dir, credential scrubbing and the Deno fence — each as one check with a plain verdict —
 * then the project config's trust and the config keys that are unknown or not used yet.
 */
import { parseDotenv } from "../config/dotenv.ts";
import { loadPermissionGrants } from "../config/permission_grants.ts";
import { loadConfig } from "../config/load.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { type Probe, probeBubblewrap, probeSeatbelt } from "../sandbox/probe.ts";
import { tempRoot } from "../sandbox/temp_dir.ts";
import type { AdminContext } from "./admin.ts";
import { boundaryChecks, type BoundaryOptions } from "./doctor_boundaries.ts";
import { configKeysCheck } from "./config_report.ts";
import { fenceFlags, NO_FENCE_ENV } from "./fence.ts";

export interface DoctorCheck {
  name: string;
  status: "ok" | "warn" | "off";
  detail: string;
  /** The full list behind a summarised detail (hidden paths...), for `--json`. */
  list?: string[];
}

export interface DoctorOptions {
  env: Record<string, string>;
  /** How this copy of Reasonix runs: `deno run` can re-run under the fence, a compiled binary cannot. */
  runtime: "deno" | "compiled";
  os?: string;
  probe?: () => Promise<Probe>;
  /** Replaces the real uid (tests). */
  uid?: number | null;
}

export async function sandboxChecks(ctx: AdminContext, options: DoctorOptions): Promise<DoctorCheck[]> {
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const os = options.os ?? Deno.build.os;
  return [
    await osSandbox(config, os, options.probe),
    {
      name: "network",
      status: config.sandbox.network === true ? "warn" : "ok",
      detail: config.sandbox.network === true
        ? "bash may reach the network ([sandbox] network = true)"
        : "bash has no network (set [sandbox] network = true to allow it)",
    },
    await webFetchPolicy(config, ctx),
    {
      name: "temp dir",
      status: "ok",
      detail: `one private dir per session under ${
        tempRoot(ctx.paths.stateHome)
      }, exported as TMPDIR/TMP/TEMP`,
    },
    await credentials(config, ctx),
    await fence(ctx, options),
    ...await boundaryChecks({ ...ctx, config, env: options.env, os, ...optional(options) }),
    projectConfigCheck(config),
    configKeysCheck(config),
  ];
}

function optional(options: DoctorOptions): Pick<BoundaryOptions, "probe" | "uid"> {
  return {
    ...(options.probe ? { probe: options.probe } : {}),
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
  };
}

/** Whether the workspace's reasonix.toml is trusted, and which of its keys are ignored if not. */
export function projectConfigCheck(config: ResolvedConfig): DoctorCheck {
  const name = "project config";
  const project = config.project;
  if (!project) return { name, status: "ok", detail: "none: only your own config applies" };
  const sha = project.sha256.slice(0, 12);
  if (project.trust === "trusted") {
    return { name, status: "ok", detail: `${project.file} — trusted (sha ${sha})` };
  }
  if (project.unlocks.length === 0) {
    return { name, status: "ok", detail: `${project.file} — not trusted; it only tightens your settings` };
  }
  const keys = project.unlocks.map((key) => key.key);
  const changed = project.trust === "changed" ? " (changed since you trusted it)" : "";
  return {
    name,
    status: "warn",
    detail: `${project.file} — not trusted${changed}: ${keys.length} key${keys.length === 1 ? "" : "s"} ` +
      `ignored: ${keys.join(", ")} (review with \`reasonix trust\`)`,
  };
}

async function osSandbox(
  config: ResolvedConfig,
  os: string,
  probe?: () => Promise<Probe>,
): Promise<DoctorCheck> {
  const name = "os sandbox";
  if (!config.sandbox.bash) {
    return { name, status: "off", detail: "disabled by [sandbox] bash = false: commands run directly" };
  }
  if (os === "windows") {
    return { name, status: "warn", detail: `Windows has no OS sandbox: ${fallback(config)}` };
  }
  const result = await (probe ?? (os === "darwin" ? () => probeSeatbelt() : () => probeBubblewrap()))();
  if (!result.ok) return { name, status: "warn", detail: `${result.reason}: ${fallback(config)}` };
  const tool = os === "darwin" ? "Seatbelt (sandbox-exec)" : "bubblewrap";
  return {
    name,
    status: "ok",
    detail: `${tool}: read-only system, writable workspace and extra roots, private temp dir, hidden and ` +
      "read-only paths, no capabilities",
  };
}

function fallback(config: ResolvedConfig): string {
  return config.sandbox.require
    ? "bash is refused ([sandbox] require = true)"
    : "bash runs unsandboxed (set [sandbox] require = true to refuse it)";
}

async function webFetchPolicy(config: ResolvedConfig, ctx: AdminContext): Promise<DoctorCheck> {
  const name = "web_fetch";
  const { enabled, webFetchAllowPrivate } = config.tools;
  if (enabled.length > 0 && !enabled.includes("web_fetch")) {
    return { name, status: "off", detail: "not in [tools] enabled" };
  }
  if (config.sandbox.network === false) return { name, status: "off", detail: "[sandbox] network = false" };
  const rules = [...config.permissions.allow, ...await loadPermissionGrants(ctx.paths, ctx.workspace)];
  const domains = rules.flatMap((rule) => {
    const match = /^(?:WebFetch|web_fetch)(?:\(domain:(.+)\))?$/.exec(rule.trim());
    return match ? [match[1] ?? "every domain"] : [];
  });
  const asks = config.permissions.mode === "ask"
    ? "asks per domain"
    : `${config.permissions.mode} mode: no asking`;
  const open = webFetchAllowPrivate.length > 0 ? ` except ${webFetchAllowPrivate.join(", ")}` : "";
  return {
    name,
    status: open === "" ? "ok" : "warn",
    detail: `${asks}; loopback, private, link-local and metadata addresses refused${open}; ` +
      `allowed domains: ${domains.length > 0 ? [...new Set(domains)].join(", ") : "none"}`,
  };
}

async function credentials(config: ResolvedConfig, ctx: AdminContext): Promise<DoctorCheck> {
  let names = 0;
  try {
    names = parseDotenv(await Deno.readTextFile(ctx.paths.envFile)).size;
  } catch {
    // No .env: nothing from it to strip.
  }
  const keys = new Set(config.providers.map((p) => p.apiKeyEnv)).size;
  return {
    name: "credentials",
    status: "ok",
    detail:
      `${ctx.paths.envFile} is hidden from tools and bash; ${keys} provider key names and ${names} names ` +
      "from .env are stripped from child environments (see env scrub)",
  };
}

async function fence(ctx: AdminContext, options: DoctorOptions): Promise<DoctorCheck> {
  const name = "deno fence";
  if (options.env[NO_FENCE_ENV] === "1") {
    return { name, status: "warn", detail: `disabled by ${NO_FENCE_ENV}=1` };
  }
  if (options.runtime === "compiled") {
    return {
      name,
      status: "ok",
      detail: "compiled binary: the permission flags are baked in at compile time",
    };
  }
  const flags = await fenceFlags({
    cwd: ctx.workspace,
    addDirs: [],
    outputs: [],
    env: options.env,
    paths: ctx.paths,
  });
  return { name, status: "ok", detail: `\`reasonix run\` re-runs itself with ${flags.join(" ")}` };
}

export function formatChecks(checks: readonly DoctorCheck[]): string {
  const width = Math.max(...checks.map((c) => c.name.length));
  return checks.map((c) => `[${c.status.padEnd(4)}] ${c.name.padEnd(width)}  ${c.detail}`).join("\n") + "\n";
}
