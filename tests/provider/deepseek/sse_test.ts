import assert from "node:assert/strict";
import { LineSplitter, parseSse, type SseEvent } from "../../../src/provider/deepseek/sse.ts";

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** Splits bytes at every given offset. */
function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of cuts) {
    chunks.push(bytes.slice(start, cut));
    start = cut;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

async function collect(chunks: Uint8Array[]): Promise<SseEvent[]> {
  const events: SseEvent[] = [];
  for await (const event of parseSse(streamOf(chunks))) events.push(event);
  return events;
}

const encoder = new TextEncoder();

Deno.test("parseSse() yields data events and skips comment lines", async () => {
  const text = ': keep-alive\n\ndata: {"a":1}\n\n: keep-alive\ndata: [DONE]\n\n';
  assert.deepEqual(await collect([encoder.encode(text)]), [
    { event: "message", data: '{"a":1}' },
    { event: "message", data: "[DONE]" },
  ]);
});

Deno.test("parseSse() handles CRLF and lone CR split across chunks", async () => {
  const bytes = encoder.encode("data: one\r\n\r\ndata: two\r\rdata:three\n\n");
  const cr = [...bytes].indexOf(13);
  const events = await collect(split(bytes, [cr + 1, cr + 2, cr + 3, 20]));
  assert.deepEqual(events.map((event) => event.data), ["one", "two", "three"]);
});

Deno.test("parseSse() joins multi-line data and reads the event field", async () => {
  const text = "event: update\ndata: first\ndata:  second\ndata\n\n";
  assert.deepEqual(await collect([encoder.encode(text)]), [{ event: "update", data: "first\n second\n" }]);
});

Deno.test("parseSse() decodes a UTF-8 character split across chunks at every byte", async () => {
  const text = 'data: {"t":"思考🙂"}\n\n';
  const bytes = encoder.encode(text);
  for (let cut = 1; cut < bytes.length; cut++) {
    const events = await collect(split(bytes, [cut]));
    assert.deepEqual(events, [{ event: "message", data: '{"t":"思考🙂"}' }], `cut at ${cut}`);
  }
  const single = await collect(split(bytes, Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)));
  assert.deepEqual(single.map((event) => event.data), ['{"t":"思考🙂"}']);
});

Deno.test("parseSse() yields complete pending data at the end and drops a cut-off line", async () => {
  assert.deepEqual(await collect([encoder.encode("data: last\n")]), [{ event: "message", data: "last" }]);
  assert.deepEqual(await collect([encoder.encode('data: ok\n\ndata: {"cut')]), [
    { event: "message", data: "ok" },
  ]);
});

Deno.test("parseSse() cancels the body when the consumer stops early", async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode("data: a\n\ndata: b\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  for await (const event of parseSse(body)) {
    assert.equal(event.data, "a");
    break;
  }
  assert.equal(cancelled, true);
});

Deno.test("LineSplitter.push() keeps an unterminated rest for the next chunk", () => {
  const lines = new LineSplitter();
  assert.deepEqual(lines.push("ab", false), []);
  assert.deepEqual(lines.push("c\nde\r", false), ["abc"]);
  assert.deepEqual(lines.push("\nf", false), ["de"]);
  assert.deepEqual(lines.push("", true), []);
});
