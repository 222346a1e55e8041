/**
 * @module
 * File text through the editor that runs Reasonix (an ACP client's `fs/read_text_file` and
 * `fs/write_text_file`), so the model reads unsaved buffers and the editor sees each edit. It is a port:
 * a face supplies `ToolContext.editor`, and without one every file tool uses the disk. The host keeps
 * every check: the path was resolved inside the writable roots and outside the protected paths before
 * the editor is asked, and is checked again around the call (the editor opens paths by name, so the
 * anchored I/O of confined_fs.ts cannot cover its side).
 *
 * Only plain UTF-8 text goes through the editor (no BOM, no NUL): a binary, UTF-16 or BOM file, one
 * missing on disk, and a write whose parent directory is missing stay on the disk path, where the tools
 * already describe and refuse what they cannot handle.
 */
import { dirname } from "node:path";
import { errorMessage } from "../lib/errors.ts";
import { ToolError, type Workspace } from "./tool.ts";
import {
  assertStillInside,
  assertWritable,
  displayPath,
  forbiddenPaths,
  isDeniedAny,
} from "./workspace_paths.ts";

/** The editor's file access, as the face offers it. Paths are absolute and already checked. */
export interface EditorFiles {
  /** The file's text as the editor has it: its unsaved buffer when open, else what is on disk. */
  readText?(abs: string): Promise<string>;
  /** Replaces the file's text in the editor (the editor saves it). */
  writeText?(abs: string, text: string): Promise<void>;
}

/** Larger text from the editor is refused rather than handed to the tools. */
export const MAX_EDITOR_BYTES = 64 * 1024 * 1024;

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of `bytes` when it is plain UTF-8 the editor can hold; null otherwise. */
export function plainText(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return null;
  if (bytes.includes(0)) return null;
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/**
 * The editor's text of a file the disk read found (`disk`: its bytes there, null when missing); the
 * disk's bytes when the editor does not serve it. A failed editor read is the tool's error, never a
 * silent fall back to the disk the model would take for the editor's view.
 */
export async function readThroughEditor(
  ws: Workspace,
  editor: EditorFiles,
  abs: string,
  disk: Uint8Array | null,
): Promise<Uint8Array | null> {
  if (!editor.readText || disk === null || plainText(disk) === null) return disk;
  const shown = displayPath(ws, abs);
  let text: string;
  try {
    text = await editor.readText(abs);
  } catch (error) {
    throw editorFailure("read", shown, error);
  }
  await assertStillReadable(ws, abs, shown);
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > MAX_EDITOR_BYTES) {
    throw new ToolError(
      "tool.file_too_large",
      `Cannot read "${shown}" through the editor: its text is larger than ${
        MAX_EDITOR_BYTES / 1024 / 1024
      } MiB`,
    );
  }
  return bytes;
}

/**
 * Writes `data` through the editor when it should go there; false when the disk path must write it
 * (not plain UTF-8, the file on disk is not, or its parent directory is missing).
 */
export async function writeThroughEditor(
  ws: Workspace,
  editor: EditorFiles,
  abs: string,
  write: { data: Uint8Array; disk: Uint8Array | null },
): Promise<boolean> {
  if (!editor.writeText) return false;
  const text = plainText(write.data);
  if (text === null || (write.disk !== null && plainText(write.disk) === null)) return false;
  if (!(await isDirectory(dirname(abs)))) return false;
  const shown = displayPath(ws, abs);
  await assertStillInside(ws, abs);
  await assertWritable(ws, abs, shown);
  try {
    await editor.writeText(abs, text);
  } catch (error) {
    throw editorFailure("write", shown, error);
  }
  return true;
}

/** The path still resolves to itself inside the roots and is not hidden (checked again after the call). */
async function assertStillReadable(ws: Workspace, abs: string, shown: string): Promise<void> {
  await assertStillInside(ws, abs);
  if (isDeniedAny(abs, await forbiddenPaths(ws))) {
    throw new ToolError("tool.not_found", `Cannot access "${shown}": no such file or directory`);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

function editorFailure(what: "read" | "write", shown: string, error: unknown): ToolError {
  const error_ = new ToolError(
    "tool.editor_failed",
    `Cannot ${what} "${shown}" through the editor: ${errorMessage(error)}`,
  );
  error_.cause = error;
  return error_;
}
