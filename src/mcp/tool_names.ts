/**
 * @module
 * The registry name of a server's tool: `mcp__<server>__<tool>`, in the characters every provider
 * accepts (letters, digits, `_`, `-`) and at most 64 of them. A name that had to be cut, or that two
 * tools would share, ends in a short hash of the exact server and tool names, so the same servers give
 * the same names in every session.
 */
import { createHash } from "node:crypto";

export const MCP_PREFIX = "mcp__";
const MAX_NAME = 64;
const HASH_CHARS = 8;

/** Any character outside `[A-Za-z0-9_-]` becomes `_`. */
export function sanitizeName(text: string): string {
  return text.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** The permission group of a server's tools: `mcp__<server>`. */
export function serverGroup(server: string): string {
  return `${MCP_PREFIX}${sanitizeName(server)}`;
}

/** The plain name of `server`'s `tool`, cut (with a hash) when it would pass 64 characters. */
export function mcpToolName(server: string, tool: string): string {
  const plain = `${serverGroup(server)}__${sanitizeName(tool)}`;
  return plain.length <= MAX_NAME ? plain : hashedName(plain, server, tool);
}

/** A name no other tool holds: the plain one unless `taken` has it, else one ending in a hash. */
export function uniqueToolName(server: string, tool: string, taken: (name: string) => boolean): string {
  const plain = mcpToolName(server, tool);
  if (!taken(plain)) return plain;
  return hashedName(`${serverGroup(server)}__${sanitizeName(tool)}`, server, tool);
}

function hashedName(plain: string, server: string, tool: string): string {
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, HASH_CHARS);
  return `${plain.slice(0, MAX_NAME - HASH_CHARS - 1)}_${hash}`;
}
