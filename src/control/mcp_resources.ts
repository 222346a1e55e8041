/**
 * @module
 * MCP resources in chat: `@<server>:<uri>` names a resource of a configured server. At submit each one
 * is read (`resources/read`) and attached after the text of the new user message, on the turn's tail,
 * so the prefix stays byte-stable. Text is bounded per resource and in total; binary contents are named,
 * not inlined; a failed read is attached as a note saying why. `mcpMentionTargets` lists the resources
 * and templates of connected servers for the `@` completion menu, with control characters made visible.
 */
import { errorMessage } from "../lib/errors.ts";
import { escapeControls } from "../lib/terminal_text.ts";
import { withinTime } from "../lib/within_time.ts";
import type { McpConnection } from "../mcp/client.ts";
import type { McpManager } from "../mcp/manager.ts";
import { attribute, bounded, MCP_TEXT_BYTES, resourceContentsText } from "./mcp_content.ts";
import { mentionTokens } from "./mentions.ts";

export const MCP_MENTION_TOTAL_BYTES = 200 * 1024;
const MAX_RESOURCE_MENTIONS = 10;
const TARGETS_TTL_MS = 10_000;
const TARGETS_WAIT_MS = 1_500;
const MAX_TARGETS = 500;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"`，。；：！？）]+$/u;

export interface ResourceMention {
  server: string;
  uri: string;
}

/** The `@server:uri` tokens of `text` whose server is configured, in order, without repeats. */
export function resourceMentions(text: string, servers: readonly string[]): ResourceMention[] {
  const known = new Set(servers);
  const found: ResourceMention[] = [];
  for (const token of mentionTokens(text)) {
    const match = /^([A-Za-z0-9_.-]+):(\S+)$/.exec(token);
    if (!match || !known.has(match[1]!)) continue;
    found.push({ server: match[1]!, uri: match[2]! });
  }
  return found.slice(0, MAX_RESOURCE_MENTIONS);
}

/** The attachment blocks for the resources `text` mentions; none without servers or mentions. */
export async function resourceAttachments(text: string, manager: McpManager | undefined): Promise<string[]> {
  if (manager === undefined) return [];
  const mentions = resourceMentions(text, manager.status().map((server) => server.name));
  const blocks: string[] = [];
  let budget = MCP_MENTION_TOTAL_BYTES;
  for (const { server, uri } of mentions) {
    const read = budget > 0
      ? await readResource(manager, server, uri, Math.min(budget, MCP_TEXT_BYTES))
      : { uri, body: "[not attached: the mention budget is used up]" };
    budget -= new TextEncoder().encode(read.body).length;
    const open = `<mcp-resource server="${attribute(server)}" uri="${attribute(read.uri)}">`;
    blocks.push(`${open}\n${read.body}\n</mcp-resource>`);
  }
  return blocks;
}

/** The URI as written, else without trailing punctuation (`see @docs:readme.`); a note when neither reads. */
async function readResource(
  manager: McpManager,
  server: string,
  uri: string,
  limit: number,
): Promise<{ uri: string; body: string }> {
  const bare = uri.replace(TRAILING_PUNCTUATION, "");
  try {
    const connection = await manager.connection(server);
    const read = await connection.readResource(uri).then(
      (result) => ({ uri, result }),
      async (error) => {
        if (bare === uri || bare === "") throw error;
        return { uri: bare, result: await connection.readResource(bare) };
      },
    );
    return { uri: read.uri, body: resourceContentsText(read.result, limit) };
  } catch (error) {
    return { uri, body: bounded(`[not attached: ${errorMessage(error)}]`, 2048) };
  }
}

const targets = new WeakMap<McpConnection, { at: number; list: Promise<string[]> }>();

/** `server:uri` for each resource and template of the connected servers, safe to show in a terminal. */
export async function mcpMentionTargets(manager: McpManager | undefined): Promise<string[]> {
  if (manager === undefined) return [];
  const lists = await Promise.all(
    manager.status().map(({ name }) => {
      const connection = manager.peek(name);
      if (connection === undefined || !/^[A-Za-z0-9_.-]+$/.test(name)) return [];
      const cached = targets.get(connection);
      const fresh = cached !== undefined && Date.now() - cached.at < TARGETS_TTL_MS;
      const list = fresh ? cached.list : listTargets(name, connection);
      if (!fresh) targets.set(connection, { at: Date.now(), list });
      // A slow server's resources join a later completion; workspace paths never wait for them.
      return withinTime(list, TARGETS_WAIT_MS, []);
    }),
  );
  return lists.flat().slice(0, MAX_TARGETS);
}

async function listTargets(server: string, connection: McpConnection): Promise<string[]> {
  const [resources, templates] = await Promise.all([
    connection.listResources().catch(() => []),
    connection.listResourceTemplates().catch(() => []),
  ]);
  const uris = [...resources.map((r) => r.uri), ...templates.map((t) => t.uriTemplate)];
  // A URI with whitespace or controls could not be typed back as one mention token.
  return uris.filter((uri) => /^\S+$/.test(uri) && escapeControls(uri) === uri).map((uri) =>
    `${server}:${uri}`
  );
}
