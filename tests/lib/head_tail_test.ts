import assert from "node:assert/strict";
import { completeUtf8End, headCut, tailCut, truncateMiddle } from "../../src/lib/head_tail.ts";

const encoder = new TextEncoder();

Deno.test("headCut() prefers a line end and never splits a character", () => {
  assert.equal(headCut(encoder.encode("aaaa\nbbbb\ncc"), 8), 5);
  const euro = encoder.encode("€€€"); // 3 bytes each
  assert.equal(headCut(euro, 4), 3);
  assert.equal(headCut(euro, 2), 0);
  assert.equal(headCut(euro, 9), 9);
});

Deno.test("tailCut() prefers a line start and never splits a character", () => {
  const bytes = encoder.encode("aa\nbbbb\ncccc");
  assert.equal(tailCut(bytes, 7), 8);
  const euro = encoder.encode("€€€");
  assert.equal(tailCut(euro, 4), 6);
  assert.equal(tailCut(euro, 9), 0);
});

Deno.test("completeUtf8End() stops before an incomplete trailing character", () => {
  const smile = encoder.encode("a😀"); // 1 + 4 bytes
  for (let cut = 2; cut < 5; cut++) assert.equal(completeUtf8End(smile.subarray(0, cut)), 1);
  assert.equal(completeUtf8End(smile), 5);
  assert.equal(completeUtf8End(encoder.encode("abc")), 3);
  assert.equal(completeUtf8End(new Uint8Array(0)), 0);
});

Deno.test("truncateMiddle() keeps head and tail within the budget with a marker", () => {
  const text = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n");
  const result = truncateMiddle(text, 400, { marker: (omitted, total) => `[${omitted} of ${total}]` });
  assert.ok(encoder.encode(result.text).length <= 400);
  assert.ok(result.text.startsWith("line 0\n"));
  assert.ok(result.text.endsWith("\nline 199"));
  const marker = result.text.split("\n").find((line) => line.startsWith("["));
  assert.equal(marker, `[${result.omittedBytes} of ${encoder.encode(text).length}]`);
  const kept = encoder.encode(result.text.replace(`${marker}\n`, "")).length;
  assert.equal(kept + result.omittedBytes, encoder.encode(text).length);
});

Deno.test("truncateMiddle() leaves short text alone", () => {
  assert.deepEqual(truncateMiddle("short", 10, { marker: () => "x" }), { text: "short", omittedBytes: 0 });
});
