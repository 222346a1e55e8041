/**
 * @module
 * Reads one file out of a release archive (.tar.gz or .zip) in memory, for `reasonix upgrade`.
 * Only what release.ts writes is supported: regular files, stored or deflated zip entries.
 */

async function inflate(bytes: Uint8Array, format: CompressionFormat): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

function text(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function baseName(path: string): string {
  return path.replace(/\/+$/, "").split("/").pop() ?? "";
}

/** The file whose base name is `name` in a gzipped tar, or undefined. */
export async function readFromTarGz(archive: Uint8Array, name: string): Promise<Uint8Array | undefined> {
  const tar = await inflate(archive, "gzip");
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) return undefined;
    const prefix = text(header.subarray(345, 500));
    const path = (prefix ? prefix + "/" : "") + text(header.subarray(0, 100));
    const size = parseInt(text(header.subarray(124, 136)).trim() || "0", 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const start = offset + 512;
    if ((type === "0" || type === "\0") && baseName(path) === name) {
      return tar.slice(start, start + size);
    }
    offset = start + Math.ceil(size / 512) * 512;
  }
  return undefined;
}

/** The file whose base name is `name` in a zip archive, or undefined. */
export async function readFromZip(archive: Uint8Array, name: string): Promise<Uint8Array | undefined> {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let eocd = archive.length - 22;
  while (eocd >= 0 && view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  if (eocd < 0) throw new TypeError("Cannot read the zip archive: no end of central directory");
  const count = view.getUint16(eocd + 10, true);
  let entry = view.getUint32(eocd + 16, true);
  for (let i = 0; i < count; i++) {
    if (view.getUint32(entry, true) !== 0x02014b50) break;
    const method = view.getUint16(entry + 10, true);
    const compressed = view.getUint32(entry + 20, true);
    const nameLength = view.getUint16(entry + 28, true);
    const skip = nameLength + view.getUint16(entry + 30, true) + view.getUint16(entry + 32, true);
    const path = new TextDecoder().decode(archive.subarray(entry + 46, entry + 46 + nameLength));
    if (baseName(path) === name && !path.endsWith("/")) {
      const local = view.getUint32(entry + 42, true);
      const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
      const data = archive.subarray(start, start + compressed);
      if (method === 0) return data.slice();
      if (method === 8) return await inflate(data, "deflate-raw");
      throw new TypeError(`Cannot read "${path}" from the zip archive: compression method ${method}`);
    }
    entry += 46 + skip;
  }
  return undefined;
}

export function readFromArchive(
  archive: Uint8Array,
  options: { archiveName: string; file: string },
): Promise<Uint8Array | undefined> {
  if (options.archiveName.endsWith(".zip")) return readFromZip(archive, options.file);
  return readFromTarGz(archive, options.file);
}
