/**
 * @module
 * What the Deno fence must let the kernel do for the MCP servers the user configured: spawn each stdio
 * server's command (every PATH copy of a bare name, with its real path) and reach each remote server's
 * host. A server's process is not the model's `bash`: it runs outside bash's OS sandbox, with the
 * workspace as its directory, because the user declared it (and, for a project file's server, approved
 * it); the fence only keeps the kernel from spawning anything else. Servers the gate would refuse
 * (an untrusted or changed project definition) are left out unless the run allows project servers.
 * When a remote server may start, the browser openers `/mcp login` runs (`$BROWSER`'s commands, the
 * system's opener) may be spawned too: a session's login opens the authorisation URL with them.
 */
import { delimiter, isAbsolute, join, resolve } from "node:path";
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";

export interface McpFenceRequest {
  workspace: string;
  paths: Paths;
  env: Record<string, string>;
  /** `--trust-project-mcp` is on the command line. */
  trustProjectServers: boolean;
}

export interface McpAllowance {
  /** Executables (and their real paths) the stdio servers start with, and the browser openers. */
  run: string[];
  /** `host:port` of the http and sse servers. */
  hosts: string[];
}

export async function mcpAllowance(config: ResolvedConfig, request: McpFenceRequest): Promise<McpAllowance> {
  const none = { run: [], hosts: [] };
  const hasJson = await Deno.stat(join(request.workspace, ".mcp.json")).then(() => true, () => false);
  if (config.mcpServers.length === 0 && !hasJson) return none;
  // Loaded only when a server is declared: the fence's parent stays light otherwise.
  const { resolveMcpServers } = await import("../mcp/config.ts");
  const { startRefusal } = await import("../mcp/gate.ts");
  const list = await resolveMcpServers(config, request).catch(() => undefined);
  if (list === undefined) return none;
  const gate = { workspace: request.workspace, trustProjectServers: request.trustProjectServers };
  const run = new Set<string>();
  const hosts = new Set<string>();
  for (const entry of list.servers) {
    const spec = entry.spec;
    if (spec === undefined || startRefusal(entry, gate) !== undefined) continue;
    if (spec.type === "stdio") {
      const path = spec.env.PATH ?? request.env.PATH ?? "";
      for (const file of await commandPaths(spec.command, request.workspace, path)) run.add(file);
    } else {
      const host = hostOf(spec.url);
      if (host !== null) hosts.add(host);
    }
  }
  if (hosts.size > 0) {
    for (const file of await openerPaths(request.env, request.workspace)) run.add(file);
  }
  return { run: [...run], hosts: [...hosts] };
}

/** The commands src/sandbox/host_browser.ts may start: each `$BROWSER` entry's program, else the system's. */
async function openerPaths(env: Record<string, string>, workspace: string): Promise<string[]> {
  const separator = Deno.build.os === "windows" ? ";" : ":";
  const fromEnv = (env.BROWSER ?? "").split(separator).map((entry) => entry.trim().split(/\s+/)[0] ?? "")
    .filter((program) => program !== "");
  const system = Deno.build.os === "darwin" ? "open" : Deno.build.os === "windows" ? "rundll32" : "xdg-open";
  const found: string[] = [];
  for (const program of fromEnv.length > 0 ? fromEnv : [system]) {
    found.push(...await commandPaths(program, workspace, env.PATH ?? ""));
  }
  return found;
}

/** A path names one file (relative to the workspace, where servers run); a bare name every PATH copy. */
async function commandPaths(command: string, workspace: string, path: string): Promise<string[]> {
  if (command === "") return [];
  const candidates = command.includes("/") || isAbsolute(command)
    ? [resolve(workspace, command)]
    : path.split(delimiter).filter((dir) => dir !== "").map((dir) => join(dir, command));
  const found: string[] = [];
  for (const file of candidates) {
    const real = await Deno.realPath(file).catch(() => null);
    if (real === null) continue;
    found.push(file, real);
  }
  return found.filter((file) => !file.includes(","));
}

function hostOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
    return `${parsed.hostname}:${port}`;
  } catch {
    return null;
  }
}
