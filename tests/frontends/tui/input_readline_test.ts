import assert from "node:assert/strict";
import type { EditState } from "../../../src/frontends/tui/input_edit.ts";
import {
  deleteBigWordBefore,
  deleteWordAfter,
  deleteWordBefore,
  killToLineEnd,
  killToLineStart,
  readlineEdit,
  toLineEnd,
  toLineStart,
  wordLeft,
  wordRight,
} from "../../../src/frontends/tui/input_readline.ts";
import { NO_KEY } from "./_keys.ts";

/** "ab|cd" marks the cursor with a bar. */
function at(marked: string): EditState {
  const cursor = Array.from(marked).indexOf("|");
  return { value: marked.replace("|", ""), cursor };
}

function show(state: EditState): string {
  const chars = Array.from(state.value);
  chars.splice(state.cursor, 0, "|");
  return chars.join("");
}

Deno.test("readline: Ctrl+A and Ctrl+E move to the cursor line's start and end", () => {
  assert.equal(show(toLineStart(at("one\ntw|o\nthree"))), "one\n|two\nthree");
  assert.equal(show(toLineEnd(at("one\nt|wo\nthree"))), "one\ntwo|\nthree");
  assert.equal(show(toLineStart(at("héllo 世|界"))), "|héllo 世界");
});

Deno.test("readline: Ctrl+U kills to the line's start, Ctrl+K to its end", () => {
  assert.equal(show(killToLineStart(at("some draft text|"))), "|");
  assert.equal(show(killToLineStart(at("keep\ndraft |rest"))), "keep\n|rest");
  assert.equal(show(killToLineStart(at("keep\n|rest"))), "keep|rest");
  assert.equal(show(killToLineEnd(at("dra|ft\nnext"))), "dra|\nnext");
  assert.equal(show(killToLineEnd(at("draft|\nnext"))), "draft|next");
  assert.equal(show(killToLineStart(at("|"))), "|");
});

Deno.test("readline: word motion and deletion skip separators first", () => {
  assert.equal(show(wordLeft(at("git commit -m |"))), "git commit -|m ");
  assert.equal(show(wordLeft(at("git com|mit"))), "git |commit");
  assert.equal(show(wordRight(at("|  git commit"))), "  git| commit");
  assert.equal(show(deleteWordBefore(at("src/tool/grep.ts|"))), "src/tool/grep.|");
  assert.equal(show(deleteBigWordBefore(at("open src/tool/grep.ts|"))), "open |");
  assert.equal(show(deleteBigWordBefore(at("open src  |"))), "open |");
  assert.equal(show(deleteWordAfter(at("a |big word"))), "a | word");
});

Deno.test("readline: keys map to their edits; plain letters and arrows are not readline keys", () => {
  assert.equal(readlineEdit("a", { ...NO_KEY, ctrl: true }), toLineStart);
  assert.equal(readlineEdit("", { ...NO_KEY, home: true }), toLineStart);
  assert.equal(readlineEdit("", { ...NO_KEY, end: true }), toLineEnd);
  assert.equal(readlineEdit("u", { ...NO_KEY, ctrl: true }), killToLineStart);
  assert.equal(readlineEdit("k", { ...NO_KEY, ctrl: true }), killToLineEnd);
  assert.equal(readlineEdit("w", { ...NO_KEY, ctrl: true }), deleteBigWordBefore);
  assert.equal(readlineEdit("b", { ...NO_KEY, meta: true }), wordLeft);
  assert.equal(readlineEdit("f", { ...NO_KEY, meta: true }), wordRight);
  assert.equal(readlineEdit("", { ...NO_KEY, meta: true, backspace: true }), deleteWordBefore);
  assert.equal(readlineEdit("", { ...NO_KEY, ctrl: true, leftArrow: true }), wordLeft);
  assert.equal(readlineEdit("", { ...NO_KEY, ctrl: true, rightArrow: true }), wordRight);
  assert.equal(readlineEdit("a", NO_KEY), null);
  assert.equal(readlineEdit("", { ...NO_KEY, leftArrow: true }), null);
  assert.equal(readlineEdit("", { ...NO_KEY, backspace: true }), null);
});
