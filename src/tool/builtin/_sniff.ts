/**
 * @module
 * Decides from a file's first bytes whether it is text (and in which encoding), an image, or binary.
 */

export const SNIFF_BYTES = 8192;

export type TextEncodingName = "utf-8" | "utf-16le" | "utf-16be";

export type Sniff =
  | { kind: "text"; encoding: TextEncodingName; bom: boolean }
  | { kind: "image"; format: string; width?: number; height?: number }
  | { kind: "binary" };

const INVALID_UTF8_RATIO = 0.1;

export function sniffBytes(bytes: Uint8Array): Sniff {
  const image = sniffImage(bytes);
  if (image) return image;
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { kind: "text", encoding: "utf-8", bom: true };
  if (startsWith(bytes, [0xff, 0xfe])) return { kind: "text", encoding: "utf-16le", bom: true };
  if (startsWith(bytes, [0xfe, 0xff])) return { kind: "text", encoding: "utf-16be", bom: true };
  const utf16 = guessUtf16(bytes);
  if (utf16) return { kind: "text", encoding: utf16, bom: false };
  if (bytes.includes(0)) return { kind: "binary" };
  const text = new TextDecoder("utf-8").decode(bytes, { stream: true });
  if (text.length > 0 && countChar(text, "\uFFFD") / text.length > INVALID_UTF8_RATIO) {
    return { kind: "binary" };
  }
  return { kind: "text", encoding: "utf-8", bom: false };
}

/** BOM-less UTF-16 of mostly ASCII text: every other byte is NUL, always on the same side. */
function guessUtf16(bytes: Uint8Array): TextEncodingName | null {
  const pairs = Math.floor(bytes.length / 2);
  if (pairs < 2) return null;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (bytes[i] === 0) evenNul++;
    if (bytes[i + 1] === 0) oddNul++;
  }
  if (evenNul === 0 && oddNul >= pairs * 0.6) return "utf-16le";
  if (oddNul === 0 && evenNul >= pairs * 0.6) return "utf-16be";
  return null;
}

function sniffImage(b: Uint8Array): Sniff | null {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const fits = (end: number) => b.length >= end;
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return image("PNG", fits(24) ? [view.getUint32(16), view.getUint32(20)] : null);
  }
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38])) {
    return image("GIF", fits(10) ? [view.getUint16(6, true), view.getUint16(8, true)] : null);
  }
  if (startsWith(b, [0x42, 0x4d]) && fits(26)) {
    const width = view.getInt32(18, true);
    const height = Math.abs(view.getInt32(22, true));
    if (width > 0 && height > 0 && view.getUint32(2, true) >= 26) return image("BMP", [width, height]);
  }
  if (startsWith(b, [0xff, 0xd8, 0xff])) return image("JPEG", jpegSize(b, view));
  if (fits(16) && ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") {
    return image("WebP", webpSize(b, view));
  }
  return null;
}

function image(format: string, size: [number, number] | null): Sniff {
  return size ? { kind: "image", format, width: size[0], height: size[1] } : { kind: "image", format };
}

function jpegSize(b: Uint8Array, view: DataView): [number, number] | null {
  let at = 2;
  while (at + 9 <= b.length && b[at] === 0xff) {
    const marker = b[at + 1]!;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return [view.getUint16(at + 7), view.getUint16(at + 5)];
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

function webpSize(b: Uint8Array, view: DataView): [number, number] | null {
  const chunk = ascii(b, 12, 16);
  if (chunk === "VP8X" && b.length >= 30) {
    const u24 = (at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);
    return [1 + u24(24), 1 + u24(27)];
  }
  if (chunk === "VP8 " && b.length >= 30) {
    return [view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff];
  }
  if (chunk === "VP8L" && b.length >= 25) {
    const [b0, b1, b2, b3] = [b[21]!, b[22]!, b[23]!, b[24]!];
    return [1 + (((b1 & 0x3f) << 8) | b0), 1 + (((b3 & 0xf) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6))];
  }
  return null;
}

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((byte, i) => bytes[i] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

function countChar(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) count++;
  return count;
}

export function describeImage(display: string, sniff: Sniff & { kind: "image" }, size: number): string {
  const dims = sniff.width !== undefined ? `${sniff.width}×${sniff.height}, ` : "";
  return `"${display}" is a ${sniff.format} image (${dims}${size} bytes): image viewing is not supported by this tool`;
}

/** Decodes a whole buffer: BOM stripped, encoding from `sniffBytes`. */
export function decodeText(bytes: Uint8Array, encoding: TextEncodingName): string {
  return new TextDecoder(encoding).decode(bytes);
}
