/**
 * @module
 * Reads a file only when it is a regular file, without ever blocking on a FIFO, a socket or a device:
 * the open is non-blocking and the type is taken from the open handle, so a FIFO swapped in after a
 * stat cannot hang the caller. Deno.open has no O_NONBLOCK; node:fs passes the flag through.
 */
import { constants, open } from "node:fs/promises";

/** What a non-regular file is, in words a person reads ("skipped 1 FIFO"). */
export type SpecialKind = "FIFO" | "socket" | "device" | "other";

export type RegularRead =
  | { kind: "bytes"; bytes: Uint8Array }
  | { kind: "directory" }
  | { kind: "special"; what: SpecialKind }
  | { kind: "too large"; size: number };

/**
 * The whole file when it is regular and at most `maxBytes` long. A missing path throws
 * Deno.errors.NotFound (NotADirectory when a parent is a file), as Deno.readFile does.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<RegularRead> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw asDenoError(error, path);
  }
  try {
    const info = await handle.stat();
    if (info.isDirectory()) return { kind: "directory" };
    if (!info.isFile()) return { kind: "special", what: specialKind(info) };
    if (info.size > maxBytes) return { kind: "too large", size: info.size };
    const buffer = new Uint8Array(Math.min(maxBytes, info.size) + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    // The file grew past the limit while it was read.
    if (filled > maxBytes) return { kind: "too large", size: filled };
    return { kind: "bytes", bytes: buffer.subarray(0, filled) };
  } finally {
    await handle.close();
  }
}

/** The kind of a non-regular, non-directory entry; null for a regular file or a directory. */
export function specialKindOf(info: Deno.FileInfo): SpecialKind | null {
  if (info.isFile || info.isDirectory || info.isSymlink) return null;
  if (info.isFifo) return "FIFO";
  if (info.isSocket) return "socket";
  if (info.isCharDevice || info.isBlockDevice) return "device";
  return "other";
}

function specialKind(
  info: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean },
): SpecialKind {
  if (info.isFIFO()) return "FIFO";
  if (info.isSocket()) return "socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "device";
  return "other";
}

function asDenoError(error: unknown, path: string): unknown {
  const code = (error as { code?: string }).code;
  if (code === "ENOENT") return new Deno.errors.NotFound(`Cannot open "${path}": no such file`);
  if (code === "ENOTDIR") return new Deno.errors.NotADirectory(`Cannot open "${path}": a parent is a file`);
  if (code === "EACCES" || code === "EPERM") {
    return new Deno.errors.PermissionDenied(`Cannot open "${path}": permission denied`);
  }
  if (code === "ELOOP") return new Deno.errors.FilesystemLoop(`Cannot open "${path}": too many symlinks`);
  return error;
}
