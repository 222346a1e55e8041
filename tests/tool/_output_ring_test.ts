import assert from "node:assert/strict";
import { OutputRing } from "../../src/tool/_output_ring.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function text(slice: { bytes: Uint8Array; droppedBytes: number }): [string, number] {
  return [decoder.decode(slice.bytes), slice.droppedBytes];
}

Deno.test("OutputRing keeps the newest bytes and counts what a reader missed", () => {
  const ring = new OutputRing(8);
  ring.push(encoder.encode("abcd"));
  assert.deepEqual(text(ring.sliceFrom(0)), ["abcd", 0]);
  ring.push(encoder.encode("efghij"));
  assert.deepEqual([ring.start, ring.end], [2, 10]);
  assert.deepEqual(text(ring.sliceFrom(0)), ["cdefghij", 2]);
  assert.deepEqual(text(ring.sliceFrom(4)), ["efghij", 0]);
  assert.deepEqual(text(ring.sliceFrom(10)), ["", 0]);
});

Deno.test("OutputRing keeps only the tail of a chunk larger than the whole buffer", () => {
  const ring = new OutputRing(4);
  ring.push(encoder.encode("0123456789"));
  assert.deepEqual(text(ring.sliceFrom(0)), ["6789", 6]);
});

Deno.test("OutputRing.sliceFrom() drops the rest of a character cut by the oldest drop", () => {
  const ring = new OutputRing(4);
  ring.push(encoder.encode("aé€"));
  assert.deepEqual(text(ring.sliceFrom(0)), ["€", 3]);
  assert.throws(() => new OutputRing(0), RangeError);
});
