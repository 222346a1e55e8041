/**
 * @module
 * A bounded byte buffer addressed by absolute offsets: the oldest bytes fall out once it is full, and
 * a reader that remembers an offset learns how many of the bytes it never saw were dropped.
 */

export interface RingSlice {
  bytes: Uint8Array;
  /** Bytes between the requested offset and the first byte returned that the ring no longer holds. */
  droppedBytes: number;
}

export class OutputRing {
  readonly #capacity: number;
  readonly #chunks: Uint8Array[] = [];
  #length = 0;
  #end = 0;

  constructor(capacity: number) {
    if (!(capacity >= 1)) throw new RangeError(`Cannot size an output buffer of ${capacity} bytes`);
    this.#capacity = Math.floor(capacity);
  }

  /** Absolute offset just past the newest byte, i.e. every byte ever pushed. */
  get end(): number {
    return this.#end;
  }

  /** Absolute offset of the oldest byte still held. */
  get start(): number {
    return this.#end - this.#length;
  }

  push(chunk: Uint8Array): void {
    this.#end += chunk.length;
    const kept = chunk.length > this.#capacity ? chunk.subarray(chunk.length - this.#capacity) : chunk;
    if (kept.length === 0) return;
    this.#chunks.push(kept);
    this.#length += kept.length;
    while (this.#length > this.#capacity) {
      const first = this.#chunks[0]!;
      const over = this.#length - this.#capacity;
      if (first.length <= over) {
        this.#chunks.shift();
        this.#length -= first.length;
      } else {
        this.#chunks[0] = first.subarray(over);
        this.#length -= over;
      }
    }
  }

  /** Everything from `offset` to the end, starting on a UTF-8 character boundary. */
  sliceFrom(offset: number): RingSlice {
    const from = Math.max(offset, this.start);
    const bytes = new Uint8Array(this.#end - from);
    let skip = from - this.start;
    let at = 0;
    for (const chunk of this.#chunks) {
      if (skip >= chunk.length) {
        skip -= chunk.length;
        continue;
      }
      const part = chunk.subarray(skip);
      bytes.set(part, at);
      at += part.length;
      skip = 0;
    }
    // Dropping the oldest bytes may have cut a character in two; its remaining bytes are dropped too.
    let lead = 0;
    const cutStart = from === this.start && this.start > 0;
    while (cutStart && lead < bytes.length && (bytes[lead]! & 0xc0) === 0x80) lead++;
    return { bytes: bytes.subarray(lead), droppedBytes: from - offset + lead };
  }
}
