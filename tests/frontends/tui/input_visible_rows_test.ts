import assert from "node:assert/strict";
import { renderLines, visibleRows } from "../../../src/frontends/tui/input/visible_rows.ts";

Deno.test("renderLines() splits the text at newlines and the cursor's line around the cursor", () => {
  assert.deepEqual(renderLines({ value: "ab\ncd", cursor: 4 }), [
    { before: "ab", cursor: null, after: "" },
    { before: "c", cursor: "d", after: "" },
  ]);
});

Deno.test("visibleRows() keeps a text that fits as its lines", () => {
  const edit = { value: "one\ntwo", cursor: 7 };
  assert.deepEqual(visibleRows(edit, 20, 5), { lines: renderLines(edit), hidden: 0 });
});

Deno.test("visibleRows() cuts a tall text into rows of the given width and windows them around the cursor", () => {
  const value = "a".repeat(100);
  const atEnd = visibleRows({ value, cursor: 100 }, 10, 4);
  assert.equal(atEnd.lines.length, 3, "one row is left for the mark");
  assert.equal(atEnd.hidden, 8);
  assert.deepEqual(atEnd.lines.at(-1), { before: "", cursor: " ", after: "" });
  const atStart = visibleRows({ value, cursor: 0 }, 10, 4);
  assert.deepEqual(atStart.lines[0], { before: "", cursor: "a", after: "a".repeat(9) });
});

Deno.test("visibleRows() counts wide characters by display width", () => {
  const { lines } = visibleRows({ value: "你好世界你好", cursor: 0 }, 4, 2);
  assert.equal(lines.length, 1);
  assert.deepEqual(lines[0], { before: "", cursor: "你", after: "好" });
});
