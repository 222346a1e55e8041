import assert from "node:assert/strict";
import {
  backspacePlaceholder,
  expandPastes,
  isLargePaste,
  lineCount,
  normalizePaste,
  pasteLabel,
} from "../../../src/frontends/tui/input/paste.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";

Deno.test("isLargePaste() is true past 10 lines or 800 characters", () => {
  assert.equal(isLargePaste("a\n".repeat(10)), false, "ten lines and a final newline");
  assert.equal(isLargePaste("a\n".repeat(11)), true);
  assert.equal(isLargePaste("字".repeat(800)), false);
  assert.equal(isLargePaste("字".repeat(801)), true);
});

Deno.test("normalizePaste() turns CRLF and CR into LF; lineCount() ignores a final newline", () => {
  assert.equal(normalizePaste("a\r\nb\rc"), "a\nb\nc");
  assert.equal(lineCount("a\nb\nc\n"), 3);
  assert.equal(lineCount("one"), 1);
});

Deno.test("pasteLabel() counts lines, or characters for one long line, in the current language", () => {
  setLanguage("en");
  assert.equal(pasteLabel(1, "x\n".repeat(42)), "[Pasted text #1 · 42 lines]");
  assert.equal(pasteLabel(2, "y".repeat(900)), "[Pasted text #2 · 900 chars]");
  setLanguage("zh-CN");
  assert.equal(pasteLabel(1, "x\n".repeat(42)), "[粘贴的文本 #1 · 42 行]");
  setLanguage("en");
});

Deno.test("expandPastes() puts every pasted text back, even with $ patterns in it", () => {
  const blocks = [{ label: "[P1]", text: "cost $& $1\nline" }, { label: "[P2]", text: "two" }];
  assert.equal(
    expandPastes("see [P1] and [P2] and [P1]", blocks),
    "see cost $& $1\nline and two and cost $& $1\nline",
  );
  assert.equal(expandPastes("nothing", blocks), "nothing");
});

Deno.test("backspacePlaceholder() deletes a whole placeholder ending at the cursor, and nothing else", () => {
  const blocks = [{ label: "[粘贴 #1]", text: "long" }];
  assert.deepEqual(backspacePlaceholder({ value: "看 [粘贴 #1] x", cursor: 9 }, blocks), {
    value: "看  x",
    cursor: 2,
  });
  assert.equal(backspacePlaceholder({ value: "看 [粘贴 #1] x", cursor: 11 }, blocks), null);
  assert.equal(backspacePlaceholder({ value: "[粘贴 #1", cursor: 6 }, blocks), null);
});
