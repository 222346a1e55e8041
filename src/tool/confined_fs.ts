/**
 * @module
 * File-tool I/O that a concurrent symlink swap cannot push outside the writable roots. Deno offers no
 * openat: under the fence's path-scoped permissions it turns every relative path back into an absolute
 * one and resolves it again, and /proc/self/fd needs --allow-all. So on Linux the I/O goes to the
 * session's file agent (src/sandbox/fs_agent.ts, real directory fds in a `deno eval` child) or, where
 * none runs (a compiled binary, a bare ToolContext), to a short bash program anchored by its own cwd
 * (src/sandbox/host_fs.ts). Elsewhere the path checks are re-run right before a plain write, which
 * narrows the race but cannot close it.
 */
import { basename, dirname, relative, sep } from "node:path";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { readRegularFile } from "../lib/regular_file.ts";
import { HOST_FS_EXIT as EXIT, HOST_FS_READ_OK, runHostFs } from "../sandbox/host_fs.ts";
import type { FsAgentCall } from "../sandbox/fs_agent.ts";
import { type ToolContext, ToolError, type Workspace } from "./tool.ts";
import { assertStillInside, isInside } from "./workspace_paths.ts";
import { readThroughEditor, writeThroughEditor } from "./editor_files.ts";

/** Larger files are refused rather than loaded whole into memory. */
export const MAX_READ_BYTES = 256 * 1024 * 1024;

/** What the file I/O needs from a ToolContext; with `editor`, plain text goes through the editor. */
export type FileScope = Pick<ToolContext, "workspace" | "files" | "editor" | "jobs">;

/**
 * The editor opens paths by name, so a process swapping a symlink in between the host's checks and the
 * editor's access could point it outside the workspace. Only a background job runs beside a tool call:
 * while one runs, file text goes through the disk's anchored I/O instead.
 */
function editorOf(scope: FileScope): FileScope["editor"] {
  const busy = scope.jobs?.list().some((job) => job.status === "running") ?? false;
  return busy ? undefined : scope.editor;
}

/** Whether the anchored helper is used; false on macOS and Windows, where the older checks remain. */
export const ANCHORED = Deno.build.os === "linux";

interface Anchor {
  root: string;
  rel: string;
  name: string;
}

/**
 * Replaces `abs` atomically (temp file, fsync, rename), creating missing parent directories; or hands
 * the text to the editor (editor_files.ts).
 */
export async function writeConfined(scope: FileScope, abs: string, data: Uint8Array): Promise<void> {
  const ws = scope.workspace;
  const editor = editorOf(scope);
  if (editor?.writeText) {
    // A path the disk cannot read (a directory, a FIFO) is left to the disk write, which says why.
    const disk = await readDisk(scope, abs).catch(() => undefined);
    if (disk !== undefined && await writeThroughEditor(ws, editor, abs, { data, disk })) return;
  }
  if (!ANCHORED) {
    await assertStillInside(ws, abs);
    await writeFileAtomic(abs, data, { mkdirs: true });
    return;
  }
  if (scope.files) {
    await agent(scope, { op: "write", ...place(ws, abs), mkdirs: true, deny: denied(ws, true) }, abs, data);
    return;
  }
  const at = anchor(ws, abs);
  const temp = `.${basename(abs).slice(0, 100)}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  await run(["write", at.root, at.rel, at.name, "1", temp], data, abs);
}

/** The whole file; null when it does not exist (or is hidden). The editor's text when it serves the file. */
export async function readConfined(scope: FileScope, abs: string): Promise<Uint8Array | null> {
  const disk = await readDisk(scope, abs);
  const editor = editorOf(scope);
  return editor ? await readThroughEditor(scope.workspace, editor, abs, disk) : disk;
}

async function readDisk(scope: FileScope, abs: string): Promise<Uint8Array | null> {
  const ws = scope.workspace;
  if (!ANCHORED) return await readPlain(abs);
  try {
    if (scope.files) {
      const request = {
        op: "read" as const,
        ...place(ws, abs),
        maxBytes: MAX_READ_BYTES,
        deny: denied(ws, false),
      };
      return await agent(scope, request, abs);
    }
    const at = anchor(ws, abs);
    const out = await run(["read", at.root, at.rel, at.name], null, abs);
    return out.subarray(1);
  } catch (error) {
    if (error instanceof ConfinedError && (error.exit === EXIT.notFound || error.exit === EXIT.forbidden)) {
      return null;
    }
    throw error;
  }
}

/**
 * Renames `from` (a file, directory or link, not followed) to `to`, creating `to`'s parents; `mv`
 * copies across filesystems. Linux only: callers check `ANCHORED` and keep their own fallback.
 */
export async function moveConfined(
  scope: FileScope,
  from: string,
  to: string,
  options: { overwrite: boolean },
): Promise<void> {
  const ws = scope.workspace;
  if (scope.files) {
    const request = { op: "move" as const, ...place(ws, from), to: place(ws, to), deny: denied(ws, true) };
    await agent(scope, { ...request, overwrite: options.overwrite }, from);
    return;
  }
  const source = anchor(ws, from);
  const target = anchor(ws, to);
  const overwrite = options.overwrite ? "1" : "0";
  await run(
    ["move", source.root, source.rel, source.name, target.root, target.rel, target.name, overwrite],
    null,
    from,
  );
}

/** The file read by path, following symlinks; null when it does not exist. A FIFO is refused, not opened. */
export async function readPlain(abs: string): Promise<Uint8Array | null> {
  let read;
  try {
    read = await readRegularFile(abs, MAX_READ_BYTES);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  if (read.kind === "directory") throw failure(EXIT.isDirectory, abs);
  if (read.kind === "special") throw failure(EXIT.special, abs);
  if (read.kind === "too large") throw failure(EXIT.tooLarge, abs);
  return read.bytes;
}

/** A failure of the helper; `exit` is one of `EXIT` for the cases a tool reports in its own words. */
export class ConfinedError extends ToolError {
  constructor(readonly exit: number, code: string, message: string) {
    super(code, message);
  }
}

/** The literal protected entries; the resolved ones were checked before (workspace_paths.ts). */
function denied(ws: Workspace, writing: boolean): string[] {
  return writing ? [...ws.forbidRead, ...ws.readOnly ?? []] : [...ws.forbidRead];
}

function place(ws: Workspace, abs: string): Omit<FsAgentCall, "op" | "deny"> {
  const at = anchor(ws, abs);
  const rel = at.rel === "" ? [] : at.rel.split("/");
  return { root: at.root, rel, name: at.name, roots: [ws.root, ...ws.extraWritable] };
}

async function agent(scope: FileScope, request: FsAgentCall, shown: string, data?: Uint8Array) {
  let answer;
  try {
    answer = await scope.files!.call(request, data);
  } catch (error) {
    throw failure(1, shown, error instanceof Error ? error.message : String(error));
  }
  if (answer.reply.ok) return answer.data;
  throw failure(answer.reply.exit ?? 1, shown, answer.reply.detail);
}

function anchor(ws: Workspace, abs: string): Anchor {
  const root = [ws.root, ...ws.extraWritable].filter((candidate) => isInside(abs, candidate))
    .sort((a, b) => b.length - a.length)[0];
  if (root === undefined || abs === root) {
    throw new ToolError("tool.path_outside_workspace", `Cannot use "${abs}": not inside a writable root`);
  }
  const rel = relative(root, dirname(abs)).split(sep).join("/");
  return { root, rel, name: basename(abs) };
}

async function run(args: string[], stdin: Uint8Array | null, shown: string): Promise<Uint8Array> {
  const { code, stdout, stderr } = await runHostFs(args, stdin);
  if (code === 0 && (args[0] !== "read" || stdout[0] === HOST_FS_READ_OK)) return stdout;
  throw failure(code, shown, stderr);
}

function failure(exit: number, shown: string, detail = ""): ConfinedError {
  switch (exit) {
    case EXIT.changed:
      return new ConfinedError(
        exit,
        "tool.path_changed",
        `Cannot use "${shown}": the path changed while it was in use (a directory was swapped for a symlink)`,
      );
    case EXIT.notFound:
      return new ConfinedError(exit, "tool.not_found", `Cannot access "${shown}": no such file or directory`);
    case EXIT.isDirectory:
      return new ConfinedError(exit, "tool.not_a_file", `Cannot use "${shown}": it is a directory`);
    case EXIT.parentIsFile:
      return new ConfinedError(exit, "tool.path_invalid", `Cannot use "${shown}": a parent of it is a file`);
    case EXIT.exists:
      return new ConfinedError(exit, "tool.already_exists", `Cannot move to "${shown}": it already exists`);
    case EXIT.special:
      return new ConfinedError(
        exit,
        "tool.unsupported_file",
        `Cannot use "${shown}": it is not a regular file (a FIFO, socket or device)`,
      );
    case EXIT.tooLarge:
      return new ConfinedError(
        exit,
        "tool.file_too_large",
        `Cannot read "${shown}": it is larger than ${MAX_READ_BYTES / 1024 / 1024} MiB`,
      );
    case EXIT.forbidden:
      return new ConfinedError(
        exit,
        "tool.path_forbidden",
        `Cannot use "${shown}": the path is hidden from tools or read-only`,
      );
    default:
      return new ConfinedError(
        exit,
        "tool.io_failed",
        `Cannot change "${shown}": the file operation failed${detail === "" ? "" : `: ${detail}`}`,
      );
  }
}
