/**
 * @module
 * The MCP servers that apply in a workspace: `[[plugins]]` of the global config.toml, the project's
 * `.mcp.json`, then `[[plugins]]` of its reasonix.toml; a later file replaces an earlier one's server of
 * the same name. Each server is expanded (`${VAR}`, `${VAR:-default}`) and carries its trust state. The
 * project's `.env` feeds only the expansion of project-declared servers, after the process environment:
 * a cloned repository cannot steer the user's own servers through it. Servers an editor named for the
 * session come last, as written.
 */
import { join } from "node:path";
import { hiddenPaths } from "../config/hidden.ts";
import { readDotenv } from "../config/dotenv.ts";
import { mergeByName } from "../config/load.ts";
import type { Paths } from "../config/paths.ts";
import type { ConfigWarning, McpServerDecl, ResolvedConfig } from "../config/types.ts";
import { readConfined } from "../lib/confined_read.ts";
import { expandServer, type Lookup, type McpServerSpec, MissingVariable } from "./expand.ts";
import { readMcpJson } from "./mcp_json.ts";
import { editorSpec } from "./editor_servers.ts";
import { fromProject, type McpTrust, mcpTrust } from "./trust.ts";

export interface McpServerEntry {
  decl: McpServerDecl;
  /** Absent when a variable could not be expanded: see `problem`. */
  spec?: McpServerSpec;
  /** `<file>:<line>:<col>: ...`: why this server cannot start. */
  problem?: string;
  trust: McpTrust;
  startupTimeoutMs: number;
  callTimeoutMs: number;
  /** Per tool, overriding `callTimeoutMs`. */
  toolTimeoutMs: Record<string, number>;
}

export interface McpServerList {
  servers: McpServerEntry[];
  warnings: ConfigWarning[];
}

export interface McpConfigOptions {
  workspace: string;
  paths: Paths;
  /** The process environment (config/paths.ts `processEnv()`). */
  env: Record<string, string>;
  /** Servers an editor named for this session (editor_servers.ts): they win over a file's of the same name. */
  extra?: readonly McpServerDecl[];
}

export async function resolveMcpServers(
  config: ResolvedConfig,
  options: McpConfigOptions,
): Promise<McpServerList> {
  const hidden = hiddenPaths(options.paths, config.sandbox.forbidRead);
  const json = await readMcpJson(options.workspace, hidden);
  const user = config.mcpServers.filter((decl) => !fromProject(decl));
  const projectToml = config.mcpServers.filter(fromProject);
  const decls = mergeByName(mergeByName(mergeByName(user, json.servers), projectToml), [
    ...options.extra ?? [],
  ]);
  const dotenv = await projectDotenv(options.workspace, hidden);
  const warnings = [...json.warnings, ...dotenv.warnings];
  const userLookup: Lookup = (name) => options.env[name];
  const projectLookup: Lookup = (name) => options.env[name] ?? dotenv.values.get(name);
  const servers = await Promise.all(decls.map(async (decl) => {
    const timeouts = {
      startupTimeoutMs: seconds(decl.startupTimeoutSeconds ?? config.tools.mcpStartupTimeoutSeconds),
      callTimeoutMs: seconds(decl.callTimeoutSeconds ?? config.tools.mcpCallTimeoutSeconds),
      toolTimeoutMs: Object.fromEntries(
        Object.entries(decl.toolTimeoutSeconds).map(([tool, value]) => [tool, seconds(value)]),
      ),
    };
    const trust = await mcpTrust(options.paths, options.workspace, decl);
    const spec = decl.source === "editor"
      ? editorSpec(decl)
      : expanded(decl, fromProject(decl) ? projectLookup : userLookup);
    return { decl, trust, ...timeouts, ...spec };
  }));
  return { servers, warnings };
}

function expanded(decl: McpServerDecl, lookup: Lookup): { spec: McpServerSpec } | { problem: string } {
  try {
    return { spec: expandServer(decl, lookup) };
  } catch (error) {
    if (!(error instanceof MissingVariable)) throw error;
    const field = error.field.replace(/[.[].*$/, "");
    const at = decl.at[field] ?? decl.at.entry!;
    return { problem: `${decl.file}:${at.line}:${at.column}: MCP server "${decl.name}": ${error.message}` };
  }
}

function seconds(value: number): number {
  return Math.round(value * 1000);
}

async function projectDotenv(
  workspace: string,
  hidden: string[],
): Promise<{ values: Map<string, string>; warnings: ConfigWarning[] }> {
  const file = join(workspace, ".env");
  const read = await readConfined(file, { roots: [workspace], hidden }).catch(() => undefined);
  if (read?.kind !== "text") return { values: new Map(), warnings: [] };
  const { entries, problems } = readDotenv(read.text);
  return {
    values: new Map([...entries].map(([key, entry]) => [key, entry.value])),
    warnings: problems.map((problem) => ({ file, line: problem.line, column: 1, message: problem.message })),
  };
}
