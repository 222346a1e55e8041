/**
 * @module
 * Whole-file text I/O for the writers: decode with the file's own encoding and BOM, and encode the
 * new text back the same way, so an edit never changes how a file is stored.
 */
import { type FileScope, readConfined, readPlain, writeConfined } from "../confined_fs.ts";
import { ToolError } from "../tool.ts";
import { describeImage, SNIFF_BYTES, sniffBytes, type TextEncodingName } from "./_sniff.ts";

export interface TextFile {
  text: string;
  encoding: TextEncodingName;
  bom: boolean;
  /** The bytes as read, so a planned write can tell whether the file changed since. */
  raw: Uint8Array;
}

/**
 * The decoded file, or null when it does not exist. A null scope reads in-process without the
 * anchor: code_index parses hundreds of files and keeps only symbol names.
 */
export async function readTextFile(
  scope: FileScope | null,
  abs: string,
  shown: string,
): Promise<TextFile | null> {
  let bytes: Uint8Array | null;
  try {
    bytes = scope === null ? await readPlain(abs) : await readConfined(scope, abs);
  } catch (error) {
    if (error instanceof ToolError && error.code === "tool.not_a_file") {
      throw new ToolError("tool.not_a_file", `Cannot change "${shown}": it is a directory`);
    }
    if (error instanceof Deno.errors.NotADirectory) {
      throw new ToolError("tool.path_invalid", `Cannot use "${shown}": a parent of it is a file`);
    }
    throw error;
  }
  if (bytes === null) return null;
  const sniff = sniffBytes(bytes.subarray(0, SNIFF_BYTES));
  if (sniff.kind === "image") {
    throw new ToolError("tool.unsupported_file", describeImage(shown, sniff, bytes.length));
  }
  if (sniff.kind === "binary") {
    throw new ToolError("tool.unsupported_file", `Cannot change "${shown}": it looks like a binary file`);
  }
  return {
    text: new TextDecoder(sniff.encoding).decode(bytes),
    encoding: sniff.encoding,
    bom: sniff.bom,
    raw: bytes,
  };
}

export function encodeText(text: string, encoding: TextEncodingName, bom: boolean): Uint8Array {
  const full = bom ? `\uFEFF${text}` : text;
  if (encoding === "utf-8") return new TextEncoder().encode(full);
  const out = new Uint8Array(full.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < full.length; i++) view.setUint16(i * 2, full.charCodeAt(i), encoding === "utf-16le");
  return out;
}

/** Writes atomically inside the anchored directory; filesystem failures become tool errors. */
export async function writeChecked(
  scope: FileScope,
  abs: string,
  data: Uint8Array,
  shown: string,
): Promise<void> {
  try {
    await writeConfined(scope, abs, data);
  } catch (error) {
    if (error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists) {
      throw new ToolError("tool.path_invalid", `Cannot write "${shown}": a parent of it is a file`);
    }
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new ToolError("tool.permission_denied", `Cannot write "${shown}": permission denied`);
    }
    throw error;
  }
}

export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}
