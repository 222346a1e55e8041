/**
 * @module
 * Collects a child's stdout and stderr in arrival order, keeping at most a head and a tail so a
 * runaway command cannot fill memory.
 */
import { completeUtf8End, headCut, tailCut } from "../lib/head_tail.ts";

/** Extra bytes kept past each cap so the cut can find a character or line boundary. */
const SLACK = 4;
const NEWLINE = 0x0a;

export interface CollectedOutput {
  output: string;
  droppedBytes: number;
  /** Lines the child wrote, counted over every byte, including those dropped from the middle. */
  lines: number;
}

export class OutputCollector {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #head: Uint8Array[] = [];
  #headLength = 0;
  readonly #tail: Uint8Array[] = [];
  #tailLength = 0;
  #total = 0;
  #newlines = 0;
  #endsWithNewline = true;

  constructor(maxBytes: number) {
    const max = Math.max(0, Math.floor(maxBytes));
    this.#headCap = Math.floor(max / 2);
    this.#tailCap = max - this.#headCap;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#total += chunk.length;
    this.#countLines(chunk);
    const headRoom = this.#headCap + SLACK - this.#headLength;
    if (headRoom > 0) {
      const part = chunk.subarray(0, headRoom);
      this.#head.push(part);
      this.#headLength += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (chunk.length === 0) return;
    this.#tail.push(chunk);
    this.#tailLength += chunk.length;
    while (this.#tail.length > 1 && this.#tailLength - this.#tail[0]!.length >= this.#tailCap + SLACK) {
      this.#tailLength -= this.#tail.shift()!.length;
    }
  }

  #countLines(chunk: Uint8Array): void {
    let at = chunk.indexOf(NEWLINE);
    while (at !== -1) {
      this.#newlines++;
      at = chunk.indexOf(NEWLINE, at + 1);
    }
    this.#endsWithNewline = chunk[chunk.length - 1] === NEWLINE;
  }

  /** Reads `stream` to its end, pushing only whole UTF-8 characters so two streams never mix bytes. */
  pump(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    return pumpUtf8(reader, (chunk) => this.push(chunk));
  }

  finish(): CollectedOutput {
    const decoder = new TextDecoder();
    const head = concat(this.#head);
    const tail = concat(this.#tail);
    const lines = this.#newlines + (this.#endsWithNewline ? 0 : 1);
    if (this.#total <= this.#headCap + this.#tailCap) {
      return { output: decoder.decode(concat([head, tail])), droppedBytes: 0, lines };
    }
    const lostMiddle = this.#total > head.length + tail.length;
    const all = lostMiddle ? null : concat([head, tail]);
    const headBytes = all ?? head;
    const tailBytes = all ?? tail;
    const headEnd = headCut(headBytes, this.#headCap);
    const tailStart = Math.max(all ? headEnd : 0, tailCut(tailBytes, this.#tailCap));
    const kept = headEnd + (tailBytes.length - tailStart);
    const dropped = this.#total - kept;
    const headText = decoder.decode(headBytes.subarray(0, headEnd));
    const glue = headText === "" || headText.endsWith("\n") ? "" : "\n";
    const marker = `[... ${dropped} bytes of output omitted ...]`;
    return {
      output: `${headText}${glue}${marker}\n${decoder.decode(tailBytes.subarray(tailStart))}`,
      droppedBytes: dropped,
      lines,
    };
  }
}

/** Reads `reader` to its end, handing `push` only whole UTF-8 characters so two streams never mix bytes. */
export async function pumpUtf8(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  push: (chunk: Uint8Array) => void,
): Promise<void> {
  let carry = new Uint8Array(0);
  while (true) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    const bytes = carry.length > 0 ? concat([carry, chunk]) : chunk;
    const end = completeUtf8End(bytes);
    if (end > 0) push(bytes.subarray(0, end));
    carry = bytes.slice(end);
  }
  if (carry.length > 0) push(carry);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
