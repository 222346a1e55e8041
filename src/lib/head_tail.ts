/**
 * @module
 * Cutting long output down to its head and tail without splitting a UTF-8 character, preferring to
 * cut at line ends so the model sees whole lines.
 */

const NEWLINE = 0x0a;

export interface TruncateMiddleOptions {
  /** Share of the kept bytes given to the head (default 0.7). */
  headShare?: number;
  /** The line put where bytes were dropped. */
  marker: (omittedBytes: number, totalBytes: number) => string;
}

export interface TruncateMiddleResult {
  text: string;
  omittedBytes: number;
}

function isContinuation(byte: number | undefined): boolean {
  return byte !== undefined && (byte & 0xc0) === 0x80;
}

/** End index of a head of at most `limit` bytes, on a character boundary, ideally after a newline. */
export function headCut(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.length) return bytes.length;
  let end = Math.max(0, limit);
  while (end > 0 && isContinuation(bytes[end])) end--;
  if (end === 0) return 0;
  const newline = bytes.lastIndexOf(NEWLINE, end - 1);
  if (newline >= 0 && newline + 1 >= end / 2) return newline + 1;
  return end;
}

/** Start index of a tail of at most `limit` bytes, on a character boundary, ideally after a newline. */
export function tailCut(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.length) return 0;
  let start = bytes.length - Math.max(0, limit);
  while (start < bytes.length && isContinuation(bytes[start])) start++;
  const newline = bytes.indexOf(NEWLINE, start);
  if (start > 0 && bytes[start - 1] === NEWLINE) return start;
  if (newline >= 0 && newline + 1 - start <= (bytes.length - start) / 2) return newline + 1;
  return start;
}

/** Index after the last complete UTF-8 character, so a stream chunk can be decoded on its own. */
export function completeUtf8End(bytes: Uint8Array): number {
  let start = bytes.length;
  while (start > 0 && isContinuation(bytes[start - 1]) && bytes.length - start < 3) start--;
  if (start === 0) return bytes.length;
  const lead = bytes[start - 1]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - (start - 1) >= need ? bytes.length : start - 1;
}

/** Keeps `text` within `maxBytes` (marker included) by dropping the middle. */
export function truncateMiddle(
  text: string,
  maxBytes: number,
  options: TruncateMiddleOptions,
): TruncateMiddleResult {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return { text, omittedBytes: 0 };
  const markerBytes = new TextEncoder().encode(options.marker(bytes.length, bytes.length)).length + 2;
  const room = Math.max(0, maxBytes - markerBytes);
  const headLimit = Math.floor(room * (options.headShare ?? 0.7));
  const headEnd = headCut(bytes, headLimit);
  const tailStart = Math.max(headEnd, tailCut(bytes, room - headLimit));
  const omitted = tailStart - headEnd;
  const decoder = new TextDecoder();
  const head = decoder.decode(bytes.subarray(0, headEnd));
  const tail = decoder.decode(bytes.subarray(tailStart));
  const glue = head === "" || head.endsWith("\n") ? "" : "\n";
  return { text: `${head}${glue}${options.marker(omitted, bytes.length)}\n${tail}`, omittedBytes: omitted };
}
