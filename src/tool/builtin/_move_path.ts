/**
 * @module
 * Moves a file or directory tree with rename, falling back to copy-then-remove when the two paths are
 * on different filesystems (EXDEV). The copy lands in a temp sibling first and is renamed into place,
 * so the destination never holds a half-copied tree.
 */
import { basename, dirname, join } from "node:path";

export interface MovePathOptions {
  /** Injected in tests to simulate a cross-device rename. */
  rename?: (from: string, to: string) => Promise<void>;
}

export interface MovePathResult {
  /** True when rename was impossible and the tree was copied, then removed. */
  copied: boolean;
}

export async function movePath(
  from: string,
  to: string,
  options: MovePathOptions = {},
): Promise<MovePathResult> {
  const rename = options.rename ?? Deno.rename;
  try {
    await rename(from, to);
    return { copied: false };
  } catch (error) {
    if (!isCrossDevice(error)) throw error;
  }
  const temp = join(dirname(to), `.${basename(to)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await copyTree(from, temp);
    await Deno.rename(temp, to);
  } catch (error) {
    await Deno.remove(temp, { recursive: true }).catch(() => {});
    throw error;
  }
  await Deno.remove(from, { recursive: true });
  return { copied: true };
}

function isCrossDevice(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: string }).code === "EXDEV";
}

async function copyTree(from: string, to: string): Promise<void> {
  const info = await Deno.lstat(from);
  if (info.isSymlink) {
    await Deno.symlink(await Deno.readLink(from), to);
    return;
  }
  if (!info.isDirectory) {
    await Deno.copyFile(from, to);
    return;
  }
  await Deno.mkdir(to);
  for await (const entry of Deno.readDir(from)) {
    await copyTree(join(from, entry.name), join(to, entry.name));
  }
  // Applied last so a read-only directory can still be filled first.
  if (info.mode !== null && Deno.build.os !== "windows") await Deno.chmod(to, info.mode & 0o7777);
}
