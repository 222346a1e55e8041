/**
 * @module
 * `@path` mentions in a user's message: each one naming an existing file or directory the read tools
 * may see is attached after the text, a file's content (capped) as `<mentioned-file>`, a directory's
 * short listing as `<mentioned-dir>`. A space in a path is written `\ `. The blocks ride the tail of
 * the new message, so the prefix stays stable.
 */
import { readUpTo } from "../lib/confined_read.ts";
import { join } from "node:path";
import type { Workspace } from "../tool/tool.ts";
import { displayPath, forbiddenPaths, isDeniedAny, resolveReadPath } from "../tool/workspace_paths.ts";
import { SNIFF_BYTES, sniffBytes, type TextEncodingName } from "../tool/builtin/_sniff.ts";

export const MENTION_FILE_BYTES = 64 * 1024;
export const MENTION_TOTAL_BYTES = 200 * 1024;
export const MENTION_DIR_ENTRIES = 100;
const MAX_MENTIONS = 20;
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"`，。；：！？）]+$/u;

/** The `@path` tokens of `text` (after whitespace or at the start), in order, without repeats. */
export function mentionTokens(text: string): string[] {
  const tokens = [...text.matchAll(/(?:^|\s)@((?:\\[ \t]|\S)+)/gu)].map((match) => unescapePath(match[1]!));
  return [...new Set(tokens)];
}

/** A path as a mention token: spaces and tabs backslash-escaped so the token stays one word. */
export function escapePath(path: string): string {
  return path.replace(/[ \t]/g, "\\$&");
}

function unescapePath(token: string): string {
  return token.replace(/\\([ \t])/g, "$1");
}

export interface Mentioned {
  blocks: string[];
  /** Absolute paths of the files whose text was attached (the model has now seen them). */
  files: string[];
}

/** The attachment blocks for the mentions of `text` that name something readable. */
export async function mentionAttachments(text: string, ws: Workspace): Promise<Mentioned> {
  const blocks: string[] = [];
  const files: string[] = [];
  const seen = new Set<string>();
  let budget = MENTION_TOTAL_BYTES;
  for (const token of mentionTokens(text)) {
    if (seen.size >= MAX_MENTIONS) break;
    const found = await resolveMention(ws, token);
    if (!found || seen.has(found.abs)) continue;
    seen.add(found.abs);
    const shown = displayPath(ws, found.abs);
    if (found.isDirectory) {
      blocks.push(block("mentioned-dir", shown, await directoryListing(ws, found.abs)));
      continue;
    }
    const file = await fileText(found.abs, Math.min(budget, MENTION_FILE_BYTES));
    budget -= file.bytes;
    if (file.attached) files.push(found.abs);
    blocks.push(block("mentioned-file", shown, file.text));
  }
  return { blocks, files };
}

/** The user's text followed by its attachments. */
export function withMentions(text: string, blocks: readonly string[]): string {
  return blocks.length === 0 ? text : `${text}\n\n${blocks.join("\n\n")}`;
}

interface Found {
  abs: string;
  isDirectory: boolean;
}

/** The token as written, else without trailing punctuation (`see @a.ts.`); null when neither exists. */
async function resolveMention(ws: Workspace, token: string): Promise<Found | null> {
  const candidates = [token, token.replace(TRAILING_PUNCTUATION, "")].filter((c) => c !== "");
  for (const candidate of new Set(candidates)) {
    try {
      const abs = await resolveReadPath(ws, candidate);
      const info = await Deno.stat(abs);
      if (info.isFile || info.isDirectory) return { abs, isDirectory: info.isDirectory };
    } catch {
      // Not a readable path: the token stays plain text.
    }
  }
  return null;
}

function block(tag: string, path: string, body: string): string {
  const attr = path.replaceAll("&", "&amp;").replaceAll('"', "&quot;");
  return `<${tag} path="${attr}">\n${body}\n</${tag}>`;
}

/** The file's text up to `limit` bytes (cut at a character boundary) and the bytes it used. */
async function fileText(
  abs: string,
  limit: number,
): Promise<{ text: string; bytes: number; attached?: true }> {
  const size = (await Deno.stat(abs)).size;
  if (limit <= 0) {
    return { text: `[not attached: the ${kb(MENTION_TOTAL_BYTES)} mention budget is used up]`, bytes: 0 };
  }
  // One byte past the cap tells whether the cut lands inside a character.
  const head = await readHead(abs, Math.max(limit + 1, SNIFF_BYTES));
  const sniff = sniffBytes(head.subarray(0, SNIFF_BYTES));
  if (sniff.kind !== "text") {
    return {
      text: `[not attached: ${sniff.kind === "image" ? "an image" : "a binary file"}, ${size} bytes]`,
      bytes: 0,
    };
  }
  const end = size <= limit ? head.length : boundary(head, limit, sniff.encoding);
  const text = new TextDecoder(sniff.encoding).decode(head.subarray(0, end)).replace(/\n$/, "");
  if (end >= size) return { text, bytes: end, attached: true };
  return {
    text: `${text}\n[truncated: the first ${end} of ${size} bytes are shown]`,
    bytes: end,
    attached: true,
  };
}

async function readHead(abs: string, limit: number): Promise<Uint8Array> {
  using file = await Deno.open(abs);
  return await readUpTo(file, limit);
}

/** The largest cut at or below `limit` that does not split a character. */
function boundary(bytes: Uint8Array, limit: number, encoding: TextEncodingName): number {
  let end = Math.min(limit, bytes.length);
  if (encoding !== "utf-8") return end - (end % 2);
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return end;
}

async function directoryListing(ws: Workspace, abs: string): Promise<string> {
  const forbidden = await forbiddenPaths(ws);
  const names: string[] = [];
  for await (const entry of Deno.readDir(abs)) {
    if (entry.name === ".git" || isDeniedAny(join(abs, entry.name), forbidden)) continue;
    names.push(entry.isDirectory ? `${entry.name}/` : entry.name);
  }
  names.sort();
  const shown = names.slice(0, MENTION_DIR_ENTRIES);
  const more = names.length - shown.length;
  if (names.length === 0) return "(empty directory)";
  return [...shown, ...(more > 0 ? [`[… ${more} more entries]`] : [])].join("\n");
}

function kb(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}
