/**
 * @module
 * The compaction archive: the messages a compaction took out of the conversation, kept word for word
 * in `<state>/archive/<timestamp>.jsonl` (one JSON object a line), private to the user. The directory is
 * shared by every session and workspace and bounded (`ARCHIVE_LIMITS`): after each write the oldest files
 * past the limits are removed.
 */
import { join } from "node:path";
import type { ChatMessage } from "../provider/provider.ts";

export interface ArchiveEntry {
  session: string;
  at: string;
  message: ChatMessage;
}

/**
 * What the archive keeps: the newest files up to these counts, by name (their time). `history` reads at
 * most 400 files and 64 MiB of sessions and archives together, so older files would rarely be found.
 */
export const ARCHIVE_LIMITS = { files: 400, bytes: 256 * 1024 * 1024 };
/** Only files named by `archiveName` are ever removed. */
const ARCHIVE_FILE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.jsonl$/;

/** The archive file name of a compaction at `at`: its ISO time, safe on every file system. */
export function archiveName(at: Date): string {
  return `${at.toISOString().replace(/[:.]/g, "-")}.jsonl`;
}

/** Appends the messages to the archive file of `at`; returns its path. */
export async function archiveMessages(
  dir: string,
  options: { session: string; at: Date; messages: readonly ChatMessage[] },
): Promise<string> {
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, archiveName(options.at));
  const at = options.at.toISOString();
  const lines = options.messages.map((message) => {
    const entry: ArchiveEntry = { session: options.session, at, message };
    return JSON.stringify(entry) + "\n";
  });
  await Deno.writeTextFile(file, lines.join(""), { append: true, create: true, mode: 0o600 });
  return file;
}

/** The archive directory under the state root (the Deno fence lets the kernel write it). */
export function archiveDir(stateHome: string): string {
  return join(stateHome, "archive");
}

/**
 * Like `archiveMessages`, but a failure (a full disk, a read-only state dir) is reported through `warn`
 * and yields undefined: the originals are still in the session file, so nothing is lost.
 */
export async function tryArchive(
  dir: string | undefined,
  options: { session: string; at: Date; messages: readonly ChatMessage[] },
  warn: (message: string) => void,
): Promise<string | undefined> {
  if (!dir || options.messages.length === 0) return undefined;
  try {
    const file = await archiveMessages(dir, options);
    await pruneArchive(dir, archiveName(options.at)).catch((error) => {
      warn(`Could not prune the archive ${dir}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return file;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    warn(`Could not archive the compacted messages (they stay in the session file): ${reason}`);
    return undefined;
  }
}

/** Every entry of an archive file, in order. */
export async function readArchive(file: string): Promise<ArchiveEntry[]> {
  const text = await Deno.readTextFile(file);
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as ArchiveEntry);
}

/**
 * Removes the oldest archive files past `limits` (regular files named like ours only; never `keep`, the
 * file just written); returns the names removed, oldest last.
 */
export async function pruneArchive(
  dir: string,
  keep: string,
  limits: { files: number; bytes: number } = ARCHIVE_LIMITS,
): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && ARCHIVE_FILE.test(entry.name)) names.push(entry.name);
  }
  names.sort().reverse();
  const removed: string[] = [];
  let files = 0;
  let bytes = 0;
  for (const name of names) {
    const size = (await Deno.lstat(join(dir, name)).catch(() => null))?.size ?? 0;
    files++;
    bytes += size;
    if (name === keep || (files <= limits.files && bytes <= limits.bytes)) continue;
    await Deno.remove(join(dir, name)).catch(() => {});
    removed.push(name);
  }
  return removed;
}
