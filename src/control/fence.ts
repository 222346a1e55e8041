/**
 * @module
 * The Deno fence: the narrowest Deno permissions the kernel still works with. Writes only to the
 * workspace, the extra roots, the few files and dirs of Reasonix's own it writes, the cache dir and
 * the named output files; runs only the executables the tools spawn; reaches only the provider hosts
 * unless web_fetch may go anywhere.
 * Reads and env stay broad: config, instructions and tools read anywhere the path checks allow, and
 * children get a scrubbed copy of the whole environment.
 */
import { delimiter, join, resolve } from "node:path";
import { archiveDir } from "../session/archive.ts";
import { memoryRoot } from "../tool/memory/store.ts";
import { builtinConfig } from "../config/builtin.ts";
import { loadConfig } from "../config/load.ts";
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { reexec } from "../sandbox/reexec.ts";
import { FENCE_PARENT_ENV, FENCED_ENV } from "../lib/fence_env.ts";

export { FENCED_ENV, NO_FENCE_ENV } from "../lib/fence_env.ts";
import { tempRoot } from "../sandbox/temp_dir.ts";
import { STAGING_DIR } from "../lib/atomic_fs.ts";
import { fsAgentSupported } from "../sandbox/fs_agent.ts";
import { mcpAllowance } from "./mcp_fence.ts";

/**
 * `deno run` resolves each `import()` when it runs instead of walking them all at start (the command table
 * loads each command's modules that way). Not in deno.json: `deno compile` would then leave them out.
 */
export const LAZY_IMPORTS_FLAG = "--unstable-lazy-dynamic-imports";
/** Executables the kernel itself spawns; everything else runs inside `bash`. */
const EXECUTABLES = ["bash", "sh", "bwrap", "rg", "git", "sandbox-exec"];
/** The clipboard tools `/copy` may run (src/sandbox/host_clipboard.ts); `clip` is found as clip.exe. */
const CLIPBOARD = ["pbcopy", "clip", "wl-copy", "xclip", "xsel"];

export interface FenceRequest {
  cwd: string;
  dir?: string;
  addDirs: string[];
  /** Files the command line asks to write (`--trajectory`, `--metrics`). */
  outputs: string[];
  env: Record<string, string>;
  paths: Paths;
  /** `--trust-project-mcp`: the project's MCP servers may start, so their commands may run. */
  trustProjectMcp?: boolean;
  /** `reasonix serve`: the address it listens on (`--addr`, else `[serve] addr`) must be reachable. */
  listen?: { addr?: string | undefined };
}

export async function fenceFlags(request: FenceRequest): Promise<string[]> {
  const workspace = await real(resolve(request.cwd, request.dir ?? "."));
  const config = await loadConfig({ workspace, paths: request.paths, flags: { addDirs: request.addDirs } })
    .catch(() => builtinConfig());
  const { paths } = request;
  const writable = [workspace, ...config.sandbox.allowWrite, ...reasonixWrites(paths)];
  const outputs = request.outputs.map((file) => resolve(request.cwd, file));
  const flags = [
    "--no-prompt",
    "--allow-read",
    "--allow-env",
    "--allow-sys",
    `--allow-write=${(await withRealPaths([...writable, ...outputs])).join(",")}`,
  ];
  const run = await executables(request.env.PATH ?? "");
  // The file agent (src/sandbox/fs_agent.ts) is this Deno with all permissions: see docs/SANDBOX.md.
  if (fsAgentSupported()) {
    run.push(...(await withRealPaths([Deno.execPath()])).filter((p) => !run.includes(p)));
  }
  const mcp = await mcpAllowance(config, {
    workspace,
    paths,
    env: request.env,
    trustProjectServers: request.trustProjectMcp === true,
  });
  run.push(...mcp.run.filter((p) => !run.includes(p)));
  if (run.length > 0) flags.push(`--allow-run=${run.join(",")}`);
  const net = withListenHost(netAllowance(config), request.listen, config);
  const hosts = net === "any" ? "any" : [...new Set([...(net ?? []), ...mcp.hosts])];
  if (hosts === "any") flags.push("--allow-net");
  else if (hosts.length > 0) flags.push(`--allow-net=${hosts.join(",")}`);
  return flags;
}

/**
 * What the kernel itself writes under Reasonix's home and state, and nothing else there (so not
 * config.toml, which only `reasonix config set` and `reasonix setup` write, unfenced): trust.json
 * ("Always allow", project trust) and .env (the TUI's setup wizard), both written atomically through
 * the staging dir (src/lib/atomic_fs.ts); the sessions (and input history); the compaction archive; the
 * remembered facts (memory/); the session temp dirs; which config contents were warned about (config-warnings.json, staged in the state
 * dir); the OAuth tokens of MCP servers, which a session refreshes (mcp-auth/).
 */
export function reasonixWrites(paths: Paths): string[] {
  return [
    paths.trustFile,
    paths.envFile,
    paths.mcpAuthDir,
    join(paths.home, STAGING_DIR),
    paths.sessionsDir,
    archiveDir(paths.stateHome),
    memoryRoot(paths.stateHome),
    paths.configWarningsFile,
    join(paths.stateHome, STAGING_DIR),
    tempRoot(paths.stateHome),
    paths.cacheDir,
  ];
}

/** `any` when web_fetch may fetch arbitrary URLs; otherwise the provider hosts (null: none). */
export function netAllowance(config: ResolvedConfig): "any" | string[] | null {
  const enabled = config.tools.enabled;
  const webFetch = enabled.length === 0 || enabled.includes("web_fetch");
  if (webFetch && config.sandbox.network !== false) return "any";
  const hosts = new Set<string>();
  for (const provider of config.providers) {
    try {
      hosts.add(new URL(provider.baseUrl).host);
    } catch {
      // A malformed base_url fails later with its own error.
    }
  }
  return hosts.size > 0 ? [...hosts] : null;
}

/** Serve listens on its host (any port: `--addr` may say 0); `any` already covers it. */
function withListenHost(
  net: "any" | string[] | null,
  listen: FenceRequest["listen"],
  config: ResolvedConfig,
): "any" | string[] | null {
  if (!listen || net === "any") return net;
  const addr = listen.addr ?? config.serve.addr;
  const host = /^\[([^\]]+)\]:\d+$/.exec(addr)?.[1] ?? addr.replace(/:\d*$/, "");
  return [...(net ?? []), host === "" ? "0.0.0.0" : host.includes(":") ? `[${host}]` : host];
}

/** Every PATH entry's copy of each executable, so whichever one a spawn resolves to is allowed. */
async function executables(path: string): Promise<string[]> {
  const found: string[] = [];
  for (const dir of path.split(delimiter).filter((d) => d !== "")) {
    for (const name of [...EXECUTABLES, ...CLIPBOARD]) {
      for (const file of [join(dir, name), join(dir, `${name}.exe`)]) {
        if (await isFile(file)) found.push(file);
      }
    }
  }
  return await withRealPaths(found);
}

async function withRealPaths(paths: string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const path of paths) {
    out.add(path);
    out.add(await real(path));
  }
  return [...out].filter((p) => !p.includes(","));
}

async function real(path: string): Promise<string> {
  try {
    return await Deno.realPath(path);
  } catch {
    return path;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isFile;
  } catch {
    return false;
  }
}

export interface FencedRun {
  execPath: string;
  mainModule: string;
  args: string[];
  interactive: boolean;
}

/** Runs `args` again under the fence and returns the child's exit code. */
export async function runFenced(request: FenceRequest, run: FencedRun): Promise<number> {
  const flags = await fenceFlags(request);
  return await reexec({
    execPath: run.execPath,
    args: ["run", LAZY_IMPORTS_FLAG, ...flags, run.mainModule, ...run.args],
    env: { ...request.env, [FENCED_ENV]: "1", [FENCE_PARENT_ENV]: String(Deno.pid) },
    forwardInterrupt: !run.interactive,
  });
}
