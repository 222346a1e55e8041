import assert from "node:assert/strict";
import {
  backspace,
  cursorPosition,
  EMPTY_EDIT,
  insert,
  moveHorizontal,
  moveVertical,
} from "../../../src/frontends/tui/input_edit.ts";

Deno.test("insert and backspace work on code points, so a CJK character is one step", () => {
  const typed = insert(EMPTY_EDIT, "你好a");
  assert.deepEqual(typed, { value: "你好a", cursor: 3 });
  assert.deepEqual(backspace(moveHorizontal(typed, -1)), { value: "你a", cursor: 1 });
});

Deno.test("pasted CR and CRLF become newlines", () => {
  assert.equal(insert(EMPTY_EDIT, "a\r\nb\rc").value, "a\nb\nc");
});

Deno.test("the cursor column is a display width: two columns per CJK character", () => {
  assert.deepEqual(cursorPosition(insert(EMPTY_EDIT, "ab\n你好")), { line: 1, column: 4 });
});

Deno.test("moving up keeps the display column across wide characters", () => {
  const state = insert(EMPTY_EDIT, "你好世界\nabcd");
  const up = moveVertical(state, -1)!;
  assert.equal(up.cursor, 2, "column 4 on the first line is after 你好");
  assert.equal(moveVertical(up, -1), null);
  assert.equal(moveVertical(up, 1)!.cursor, 9, "back to column 4 of abcd");
});
