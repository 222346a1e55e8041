/**
 * @module
 * The readline editing set on the input box's text model: line start/end, kill to either end,
 * word motion and word deletion. Multi-line input: line commands act on the cursor's line.
 */
import type { Key } from "ink";
import type { EditState } from "./input_edit.ts";

function lineBounds(chars: readonly string[], cursor: number): { start: number; end: number } {
  let start = cursor;
  while (start > 0 && chars[start - 1] !== "\n") start--;
  let end = cursor;
  while (end < chars.length && chars[end] !== "\n") end++;
  return { start, end };
}

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);

/** Ctrl+A, Home. */
export function toLineStart(state: EditState): EditState {
  return { ...state, cursor: lineBounds(Array.from(state.value), state.cursor).start };
}

/** Ctrl+E, End. */
export function toLineEnd(state: EditState): EditState {
  return { ...state, cursor: lineBounds(Array.from(state.value), state.cursor).end };
}

function removeRange(state: EditState, from: number, to: number): EditState {
  if (from === to) return state;
  const chars = Array.from(state.value);
  chars.splice(from, to - from);
  return { value: chars.join(""), cursor: from };
}

/** Ctrl+U: deletes from the line's start to the cursor; at a line's start, joins it to the line above. */
export function killToLineStart(state: EditState): EditState {
  const chars = Array.from(state.value);
  const { start } = lineBounds(chars, state.cursor);
  const from = start === state.cursor && start > 0 ? start - 1 : start;
  return removeRange(state, from, state.cursor);
}

/** Ctrl+K: deletes from the cursor to the line's end; at a line's end, joins the next line. */
export function killToLineEnd(state: EditState): EditState {
  const chars = Array.from(state.value);
  const { end } = lineBounds(chars, state.cursor);
  const to = end === state.cursor && end < chars.length ? end + 1 : end;
  return removeRange(state, state.cursor, to);
}

/** Where the word before the cursor starts (skipping separators first, as readline does). */
function previousWordStart(chars: readonly string[], cursor: number): number {
  let index = cursor;
  while (index > 0 && !isWordChar(chars[index - 1])) index--;
  while (index > 0 && isWordChar(chars[index - 1])) index--;
  return index;
}

function nextWordEnd(chars: readonly string[], cursor: number): number {
  let index = cursor;
  while (index < chars.length && !isWordChar(chars[index])) index++;
  while (index < chars.length && isWordChar(chars[index])) index++;
  return index;
}

/** Alt+B, Ctrl+Left. */
export function wordLeft(state: EditState): EditState {
  return { ...state, cursor: previousWordStart(Array.from(state.value), state.cursor) };
}

/** Alt+F, Ctrl+Right. */
export function wordRight(state: EditState): EditState {
  return { ...state, cursor: nextWordEnd(Array.from(state.value), state.cursor) };
}

/** Alt+Backspace: deletes the word before the cursor. */
export function deleteWordBefore(state: EditState): EditState {
  return removeRange(state, previousWordStart(Array.from(state.value), state.cursor), state.cursor);
}

/** Ctrl+W: deletes back to the previous whitespace, as in a shell (`a/b/c` goes at once). */
export function deleteBigWordBefore(state: EditState): EditState {
  const chars = Array.from(state.value);
  let index = state.cursor;
  while (index > 0 && /\s/.test(chars[index - 1]!)) index--;
  while (index > 0 && !/\s/.test(chars[index - 1]!)) index--;
  return removeRange(state, index, state.cursor);
}

/** Alt+D: deletes the word after the cursor. */
export function deleteWordAfter(state: EditState): EditState {
  return removeRange(state, state.cursor, nextWordEnd(Array.from(state.value), state.cursor));
}

type Edit = (state: EditState) => EditState;

const CTRL_EDITS: Record<string, Edit> = {
  a: toLineStart,
  e: toLineEnd,
  u: killToLineStart,
  k: killToLineEnd,
  w: deleteBigWordBefore,
};

const META_EDITS: Record<string, Edit> = { b: wordLeft, f: wordRight, d: deleteWordAfter };

/** The edit a readline key makes, or null when the key is not one of them. */
export function readlineEdit(input: string, key: Key): Edit | null {
  if (key.home) return toLineStart;
  if (key.end) return toLineEnd;
  if (key.backspace && key.meta) return deleteWordBefore;
  if ((key.ctrl || key.meta) && key.leftArrow) return wordLeft;
  if ((key.ctrl || key.meta) && key.rightArrow) return wordRight;
  if (key.ctrl && !key.meta) return CTRL_EDITS[input] ?? null;
  if (key.meta && !key.ctrl) return META_EDITS[input] ?? null;
  return null;
}
