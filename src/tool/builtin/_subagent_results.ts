/**
 * @module
 * Bounded subagent answers: a preview that fits a share of one tool result, and pages by byte offset
 * that never split a UTF-8 character. Refs are `subagent:<session id>`, nothing else.
 */

export const REF_PATTERN = /^subagent:[0-9A-Za-z_-]{1,80}$/;

export const DEFAULT_PAGE_BYTES = 16_384;

const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();

export interface ResultPage {
  text: string;
  /** The offset of the next page; null at the end. */
  next: number | null;
  total: number;
}

export function pageResult(text: string, offset: number, limit = DEFAULT_PAGE_BYTES): ResultPage {
  const bytes = ENCODER.encode(text);
  const start = boundary(bytes, Math.min(offset, bytes.length));
  let end = boundary(bytes, Math.min(start + limit, bytes.length));
  // A page smaller than one character still moves on by that whole character.
  if (end <= start && start < bytes.length) {
    end = start + 1;
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end++;
  }
  const next = end < bytes.length ? end : null;
  return { text: DECODER.decode(bytes.subarray(start, end)), next, total: bytes.length };
}

/** The head of `text` in at most `bytes` bytes, with how much was left out. */
export function previewOf(text: string, bytes: number): string {
  const page = pageResult(text, 0, Math.max(256, bytes));
  return page.next === null ? page.text : `${page.text}\n[... ${page.total - page.next} more bytes]`;
}

/** Moves back to the start of a UTF-8 character (continuation bytes are 10xxxxxx). */
function boundary(bytes: Uint8Array, at: number): number {
  let index = at;
  while (index > 0 && index < bytes.length && (bytes[index]! & 0xc0) === 0x80) index--;
  return index;
}
