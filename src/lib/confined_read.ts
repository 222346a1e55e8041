/**
 * @module
 * Reads a text file that Reasonix loads on someone else's behalf (a project's instruction files, its
 * reasonix.toml, a system_prompt_file) only when its real path stays inside the allowed roots and
 * outside every hidden path, so a symlink such as `AGENTS.md -> ~/.reasonix/.env` is refused, not read.
 */
import { isAbsolute, normalize, relative } from "node:path";

export interface ConfinedReadOptions {
  /** The real path must be inside one of these; absent means anywhere. */
  roots?: readonly string[];
  /** The real path must not be inside any of these. */
  hidden: readonly string[];
  /** Larger files are skipped. */
  maxBytes?: number;
}

export type ConfinedRead =
  | { kind: "text"; text: string; bytes: Uint8Array; real: string }
  | { kind: "missing" }
  | { kind: "skipped"; reason: "too large" | "not a file" }
  | { kind: "refused"; real: string; reason: "outside" | "hidden" | "changed" };

export async function readConfined(path: string, options: ConfinedReadOptions): Promise<ConfinedRead> {
  const info = await statOrNull(path);
  if (info === null) return { kind: "missing" };
  // Checked before opening: opening a FIFO would block.
  if (!info.isFile) return { kind: "skipped", reason: "not a file" };
  const limit = options.maxBytes ?? Number.MAX_SAFE_INTEGER;
  if (info.size > limit) return { kind: "skipped", reason: "too large" };
  // Open first, then prove the open handle is the file at a confined real path: the real path is
  // computed after the open and its dev/ino must match the handle's. Swapping a symlink between the
  // check and the read then yields a mismatch ("changed"), never the swapped-in file's bytes.
  using file = await Deno.open(path, { read: true });
  const opened = await file.stat();
  let real: string;
  try {
    real = await Deno.realPath(path);
  } catch {
    return { kind: "refused", real: path, reason: "changed" };
  }
  const refusal = await refusalFor(real, options);
  if (refusal) return { kind: "refused", real, reason: refusal };
  const checked = await statOrNull(real);
  if (checked === null || !sameFile(opened, checked)) return { kind: "refused", real, reason: "changed" };
  const bytes = await readUpTo(file, Math.min(limit, opened.size) + 1);
  if (bytes.length > limit) return { kind: "skipped", reason: "too large" };
  return { kind: "text", text: new TextDecoder().decode(bytes), bytes, real };
}

/** Why `real` may not be read, or null; also for callers that only need the check (writes). */
export async function refusalFor(
  real: string,
  options: Pick<ConfinedReadOptions, "roots" | "hidden">,
): Promise<"outside" | "hidden" | null> {
  if (options.roots && !isInsideAny(real, await realPaths(options.roots))) return "outside";
  if (isInsideAny(real, await realPaths(options.hidden))) return "hidden";
  return null;
}

/** A refusal as one sentence naming the file and where it points. */
export function describeRefusal(path: string, read: Extract<ConfinedRead, { kind: "refused" }>): string {
  const where = read.real === path ? "" : ` (it points to "${read.real}")`;
  const why = read.reason === "outside"
    ? "it is outside the workspace"
    : read.reason === "hidden"
    ? "it is a protected location (the Reasonix home, forbid_read or a credentials directory)"
    : "it changed while being read";
  return `Cannot load "${path}"${where}: ${why}; the file is not loaded`;
}

function sameFile(a: Deno.FileInfo, b: Deno.FileInfo): boolean {
  // Windows reports no inode: the real-path check is all there is.
  if (a.ino === null || b.ino === null) return true;
  return a.dev === b.dev && a.ino === b.ino;
}

/** Each path as given and as resolved, so a hidden entry reached through a symlink is still hidden. */
async function realPaths(paths: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const path of paths) {
    out.add(normalize(path));
    try {
      out.add(await Deno.realPath(path));
    } catch {
      // A missing entry still hides its literal path.
    }
  }
  return [...out];
}

function isInsideAny(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => {
    const rel = relative(root, path);
    return rel === "" || (!isAbsolute(rel) && rel.split(/[\\/]/)[0] !== "..");
  });
}

async function statOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.stat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return null;
    if (error instanceof Deno.errors.FilesystemLoop) return null;
    throw error;
  }
}

/** Up to `limit` bytes from the start of an open file (fewer when it is shorter). */
export async function readUpTo(file: Deno.FsFile, limit: number): Promise<Uint8Array> {
  const buffer = new Uint8Array(limit);
  let filled = 0;
  while (filled < limit) {
    const read = await file.read(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return buffer.subarray(0, filled);
}
