/**
 * @module
 * Whether a server may start now. A server a project file declares starts only once the user approved
 * its exact definition (`reasonix mcp trust <name>`); where nobody can be asked, it is refused with the
 * command that approves it. `--trust-project-mcp` approves every project server for one run, without
 * recording anything.
 */
import { relative } from "node:path";
import type { McpServerEntry } from "./config.ts";

export interface GateOptions {
  workspace: string;
  /** `--trust-project-mcp`: project servers start this once without a recorded approval. */
  trustProjectServers?: boolean;
}

/** Why `entry` may not start, or undefined when it may. */
export function startRefusal(entry: McpServerEntry, options: GateOptions): string | undefined {
  const { decl } = entry;
  if (entry.problem !== undefined) return entry.problem;
  if (entry.trust === "user" || entry.trust === "trusted" || options.trustProjectServers) return undefined;
  const file = relative(options.workspace, decl.file) || decl.file;
  const state = entry.trust === "changed"
    ? "changed since you trusted it"
    : "is not trusted in this workspace";
  return `MCP server "${decl.name}" from ${file} ${state}: review and approve it with ` +
    `\`reasonix mcp trust ${decl.name}\` (or allow every project server for one run with --trust-project-mcp)`;
}
