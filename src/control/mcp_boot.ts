/**
 * @module
 * The MCP servers of a booting session: resolved from the config files, gated by trust, and started in
 * the background so they never hold up the first turn. A project server that may not start, or a
 * `.mcp.json` that cannot be read, is a warning: the session goes on without it. `reloadMcpServers`
 * (`/reload`) and `trustMcpServerNow` (`/mcp trust`) re-read the files and reconfigure the running manager.
 */
import type { Paths } from "../config/paths.ts";
import { formatWarning } from "../config/errors.ts";
import { type ConfigFlags, loadConfig } from "../config/load.ts";
import type { McpServerDecl, ResolvedConfig } from "../config/types.ts";
import { errorMessage, ReasonixError } from "../lib/errors.ts";
import { type McpServerList, resolveMcpServers } from "../mcp/config.ts";
import { McpManager } from "../mcp/manager.ts";
import type { ControllerParts } from "./controller_parts.ts";
import { McpTools } from "./mcp_tools.ts";
import { fromProject, trustMcpServer } from "../mcp/trust.ts";
import { CATALOGS, detectLanguage } from "../lib/i18n/mod.ts";

export interface McpBootOptions {
  workspace: string;
  paths: Paths;
  env: Record<string, string>;
  /** `--trust-project-mcp`: project servers start this once without a recorded approval. */
  trustProjectServers?: boolean;
  /** The session's flags, for re-reading the config files on `/reload`. */
  flags?: ConfigFlags;
  /** Someone can answer `/mcp trust` (the TUI): refused project servers add a notice naming it. */
  interactive?: boolean;
  /** Servers an editor named for this session (src/mcp/editor_servers.ts); kept across `/reload`. */
  extra?: readonly McpServerDecl[];
}

/** How each running manager was booted, so `/reload` and `/mcp trust` can resolve its servers again. */
const booted = new WeakMap<McpManager, McpBootOptions>();

export async function startMcpServers(
  config: ResolvedConfig,
  options: McpBootOptions,
): Promise<{ manager: McpManager; warnings: string[] }> {
  const warnings: string[] = [];
  const list = await resolved(config, options, warnings);
  const manager = new McpManager(list.servers, {
    workspace: options.workspace,
    baseEnv: options.env,
    oauthDir: options.paths.mcpAuthDir,
    ...(options.trustProjectServers ? { trustProjectServers: true } : {}),
  });
  booted.set(manager, options);
  const refused = manager.status().filter(({ state }) => state.kind === "refused");
  for (const { state } of refused) warnings.push((state as { reason: string }).reason);
  if (options.interactive && refused.some(({ name }) => manager.entry(name)?.trust !== "user")) {
    // The face sets its language after the boot: the notice is worded in the one it will choose.
    const language = detectLanguage(options.env, config.language);
    warnings.push(CATALOGS[language]["mcp.trust_notice"]);
  }
  manager.startInBackground();
  return { manager, warnings };
}

/**
 * Puts the servers' tools in the session's registry (see mcp_tools.ts) through the hook the Controller
 * runs before each turn; notes about tools that came later go on that turn's tail.
 */
export function withMcpTools(parts: ControllerParts, graceMs?: number): ControllerParts {
  if (parts.mcp === undefined || parts.mcp.status().length === 0) return parts;
  const tools = new McpTools({
    manager: parts.mcp,
    registry: parts.registry,
    ...(parts.recordedToolsJson === undefined ? {} : { recordedToolsJson: parts.recordedToolsJson }),
    ...(graceMs === undefined ? {} : { graceMs }),
  });
  parts.toolsReady = async () => {
    const notes = await tools.ready();
    if (notes.length > 0) parts.turnNotes = [...(parts.turnNotes ?? []), ...notes];
  };
  return parts;
}

/** Re-reads the config files and `.mcp.json`: changed, failed and crashed servers start again. */
export async function reloadMcpServers(manager: McpManager): Promise<string[]> {
  const options = booted.get(manager);
  if (options === undefined) return [];
  const config = await loadConfig({
    workspace: options.workspace,
    paths: options.paths,
    flags: options.flags ?? {},
  });
  const warnings: string[] = [];
  const list = await resolved(config, options, warnings);
  await manager.reconfigure(list.servers);
  return warnings;
}

/** `/mcp trust <name>`: records approval of the project server's exact definition, then starts it. */
export async function trustMcpServerNow(manager: McpManager, name: string): Promise<void> {
  const options = booted.get(manager);
  const entry = manager.entry(name);
  if (entry === undefined) throw new ReasonixError("mcp.unknown_server", `Cannot find MCP server "${name}"`);
  if (options === undefined || !fromProject(entry.decl)) return;
  await trustMcpServer(options.paths, options.workspace, entry.decl);
  await reloadMcpServers(manager);
}

async function resolved(
  config: ResolvedConfig,
  options: McpBootOptions,
  warnings: string[],
): Promise<McpServerList> {
  const list = await resolveMcpServers(config, options).catch((error) => {
    warnings.push(`MCP servers are off for this session: ${errorMessage(error)}`);
    return { servers: [], warnings: [] };
  });
  warnings.push(...list.warnings.map(formatWarning));
  return list;
}
