import assert from "node:assert/strict";
import { numberedDiff } from "../../src/lib/diff/numbered.ts";

Deno.test("numberedDiff() numbers removed lines by the old file and added lines by the new one", () => {
  const lines = numberedDiff("a\nb\nc\n", "a\nB\nc\nd\n");
  assert.deepEqual(lines, [
    { kind: "hunk", oldLine: null, newLine: null, text: "@@ -1,3 +1,4 @@" },
    { kind: "context", oldLine: 1, newLine: 1, text: "a" },
    { kind: "remove", oldLine: 2, newLine: null, text: "b" },
    { kind: "add", oldLine: null, newLine: 2, text: "B" },
    { kind: "context", oldLine: 3, newLine: 3, text: "c" },
    { kind: "add", oldLine: null, newLine: 4, text: "d" },
  ]);
});

Deno.test("numberedDiff() starts each hunk at its own line and skips no-newline markers", () => {
  const old = Array.from({ length: 30 }, (_, i) => `l${i + 1}`).join("\n");
  const changed = old.replace("l25", "L25");
  const lines = numberedDiff(old, changed, 1);
  assert.equal(lines[0]!.text, "@@ -24,3 +24,3 @@");
  assert.deepEqual(lines.find((line) => line.kind === "add"), {
    kind: "add",
    oldLine: null,
    newLine: 25,
    text: "L25",
  });
  assert.ok(lines.every((line) => !line.text.startsWith("No newline")));
  assert.deepEqual(numberedDiff("same\n", "same\n"), []);
});
