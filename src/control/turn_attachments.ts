/**
 * @module
 * What a user turn carries after its text: the `@path` mentions (mentions.ts) and the `@server:uri`
 * resources (mcp_resources.ts), read when the turn is sent. Text a server wrote (an MCP prompt's
 * messages) is sent literally: a hostile prompt cannot make Reasonix read files or other servers'
 * resources by naming them.
 */
import type { McpManager } from "../mcp/manager.ts";
import type { Workspace } from "../tool/tool.ts";
import { resourceAttachments } from "./mcp_resources.ts";
import { mentionAttachments, type Mentioned } from "./mentions.ts";

export interface TurnOptions {
  /** The text came from a server (an MCP prompt): its `@` mentions stay text and nothing is read for them. */
  literal?: boolean;
  /** Blocks pinned after the text and its attachments (an inline skill's `<skill-pin>`); never read for `@`. */
  pins?: readonly string[];
}

export async function turnAttachments(
  text: string,
  session: { toolContext: { workspace: Workspace }; mcp?: McpManager | undefined },
  options: TurnOptions = {},
): Promise<Mentioned> {
  if (options.literal) return { blocks: [], files: [] };
  const mentioned = await mentionAttachments(text, session.toolContext.workspace);
  return { ...mentioned, blocks: [...mentioned.blocks, ...await resourceAttachments(text, session.mcp)] };
}
