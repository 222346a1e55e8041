/**
 * @module
 * The MCP servers of a booting session: resolved from the config files, gated by trust, and started in
 * the background so they never hold up the first turn. A project server that may not start, or a
 * `.mcp.json` that cannot be read, is a warning: the session goes on without it.
 */
import type { Paths } from "../config/paths.ts";
import { formatWarning } from "../config/errors.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { errorMessage } from "../lib/errors.ts";
import { resolveMcpServers } from "../mcp/config.ts";
import { McpManager } from "../mcp/manager.ts";
import type { ControllerParts } from "./controller_parts.ts";
import { McpTools } from "./mcp_tools.ts";

export interface McpBootOptions {
  workspace: string;
  paths: Paths;
  env: Record<string, string>;
  /** `--trust-project-mcp`: project servers start this once without a recorded approval. */
  trustProjectServers?: boolean;
}

export async function startMcpServers(
  config: ResolvedConfig,
  options: McpBootOptions,
): Promise<{ manager: McpManager; warnings: string[] }> {
  const warnings: string[] = [];
  const list = await resolveMcpServers(config, options).catch((error) => {
    warnings.push(`MCP servers are off for this session: ${errorMessage(error)}`);
    return { servers: [], warnings: [] };
  });
  warnings.push(...list.warnings.map(formatWarning));
  const manager = new McpManager(list.servers, {
    workspace: options.workspace,
    baseEnv: options.env,
    oauthDir: options.paths.mcpAuthDir,
    ...(options.trustProjectServers ? { trustProjectServers: true } : {}),
  });
  for (const { state } of manager.status()) {
    if (state.kind === "refused") warnings.push(state.reason);
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
