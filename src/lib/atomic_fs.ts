/**
 * @module
 * Crash-safe file replacement: write a temp file next to the target, fsync it, then rename it over
 * the target, so readers see either the old bytes or the new ones, never a torn file.
 */
import { basename, dirname, join } from "node:path";

export interface WriteFileAtomicOptions {
  /** Mode for a new file; an existing file keeps its own mode. */
  mode?: number;
  /** Create missing parent directories. */
  mkdirs?: boolean;
  /**
   * Make the temp file in `<dir>/.staging/` instead of next to the target: the fence grants the kernel
   * write access to single files in Reasonix's home (trust.json, .env) and to that directory, not to
   * the home itself (src/control/fence.ts).
   */
  staged?: boolean;
}

/** The staging directory's name inside the target's directory, for `staged` writes. */
export const STAGING_DIR = ".staging";

const DEFAULT_MODE = 0o644;

export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: WriteFileAtomicOptions = {},
): Promise<void> {
  const dir = dirname(path);
  const tempDir = options.staged ? join(dir, STAGING_DIR) : dir;
  if (options.staged) await Deno.mkdir(tempDir, { recursive: true, mode: 0o700 });
  // Only when missing: Deno asks for write access to the directory even when it already exists.
  if (options.mkdirs && !(await isDirectory(dir))) await Deno.mkdir(dir, { recursive: true });
  const mode = (await existingMode(path)) ?? options.mode ?? DEFAULT_MODE;
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  const temp = join(tempDir, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    const file = await Deno.open(temp, { write: true, createNew: true, mode });
    try {
      await writeAll(file, bytes);
      await file.sync();
    } finally {
      file.close();
    }
    if (Deno.build.os !== "windows") await Deno.chmod(temp, mode);
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
  await syncDir(dir);
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    const info = await Deno.stat(path);
    return info.mode === null ? undefined : info.mode & 0o7777;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    written += await file.write(bytes.subarray(written));
  }
}

/** Makes the rename itself durable; not every platform lets a directory be opened, so it is best effort. */
async function syncDir(dir: string): Promise<void> {
  if (Deno.build.os === "windows") return;
  try {
    const handle = await Deno.open(dir, { read: true });
    try {
      await handle.sync();
    } finally {
      handle.close();
    }
  } catch {
    // Durability of the directory entry is a bonus; the data itself is already synced.
  }
}
