/**
 * @module
 * What grep left out, so "No matches" is only said when everything was searched: non-regular files
 * (a FIFO would block the reader), files over the size cap (one long line would be held whole in
 * memory), counted from our own stats or from ripgrep's `--debug` lines.
 */
import { type SpecialKind, specialKindOf } from "../../lib/regular_file.ts";

/** Files larger than this are not searched: ripgrep holds a whole line in memory, and a line can be the file. */
export const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;

export type SkipReason = SpecialKind | "large";

/** Stats run this many at a time. */
const STAT_BATCH = 64;

const ORDER: readonly SkipReason[] = ["FIFO", "socket", "device", "other", "large"];

export class SkipTally {
  readonly #counts = new Map<SkipReason, number>();

  add(reason: SkipReason): void {
    this.#counts.set(reason, (this.#counts.get(reason) ?? 0) + 1);
  }

  get total(): number {
    let sum = 0;
    for (const count of this.#counts.values()) sum += count;
    return sum;
  }

  /** "2 files (1 FIFO, 1 larger than 10 MB)"; empty when nothing was skipped. */
  describe(): string {
    const total = this.total;
    if (total === 0) return "";
    const parts = ORDER.filter((reason) => this.#counts.has(reason)).map((reason) =>
      `${this.#counts.get(reason)} ${label(reason)}`
    );
    return `${total} ${total === 1 ? "file" : "files"} (${parts.join(", ")})`;
  }
}

function label(reason: SkipReason): string {
  switch (reason) {
    case "large":
      return `larger than ${GREP_MAX_FILE_BYTES / 1024 / 1024} MB`;
    case "other":
      return "not a regular file";
    default:
      return reason;
  }
}

/** Why `info` (from stat, symlinks followed) is not searched, or null when it is searched. */
export function skipReasonOf(info: Deno.FileInfo): SkipReason | null {
  const special = specialKindOf(info);
  if (special) return special;
  return info.isFile && info.size > GREP_MAX_FILE_BYTES ? "large" : null;
}

/**
 * Keeps the regular files no larger than the cap, tallying the rest; a path that cannot be stat'ed is
 * dropped silently, as ripgrep drops it.
 */
export async function screenFiles(files: readonly string[], tally: SkipTally): Promise<string[]> {
  const kept: string[] = [];
  for (let i = 0; i < files.length; i += STAT_BATCH) {
    const batch = files.slice(i, i + STAT_BATCH);
    const infos = await Promise.all(batch.map((file) => Deno.stat(file).catch(() => null)));
    batch.forEach((file, index) => {
      const info = infos[index];
      if (!info) return;
      const reason = skipReasonOf(info);
      if (reason) tally.add(reason);
      else if (info.isFile) kept.push(file);
    });
  }
  return kept;
}

/**
 * The paths ripgrep's walk passed over, from its `--debug` log: "ignoring <path>: <n> bytes" (over
 * `--max-filesize`) and "ignoring <path>: failed to pass subject/haystack filter" (not a regular file,
 * or a symlink, which is not followed on purpose). Only the path is taken from the log: the reason
 * comes from our own lstat (`tallyPaths`), so a change in ripgrep's wording cannot miscount.
 */
export function rgSkippedPaths(stderr: string): string[] {
  const paths = new Set<string>();
  for (const line of stderr.split("\n")) {
    const size = /ignoring (.+): \d+ bytes$/.exec(line);
    const filtered = /ignoring (.+?): failed to pass (?:subject|haystack) filter/.exec(line);
    const path = size?.[1] ?? filtered?.[1];
    if (path !== undefined) paths.add(path);
  }
  return [...paths];
}

/** Tallies each path by its own lstat; symlinks and files that are searched after all are not counted. */
export async function tallyPaths(paths: readonly string[], tally: SkipTally): Promise<void> {
  const unique = [...new Set(paths)];
  for (let i = 0; i < unique.length; i += STAT_BATCH) {
    const infos = await Promise.all(
      unique.slice(i, i + STAT_BATCH).map((path) => Deno.lstat(path).catch(() => null)),
    );
    for (const info of infos) {
      const reason = info && !info.isSymlink ? skipReasonOf(info) : null;
      if (reason) tally.add(reason);
    }
  }
}
