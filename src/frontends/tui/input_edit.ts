/**
 * @module
 * The input box's text model: a value and a cursor (in code points), edited by pure functions.
 * Columns are display widths (string-width), so moving up/down over Chinese text lands right.
 */
import stringWidth from "string-width";

export interface EditState {
  value: string;
  /** Cursor position in code points. */
  cursor: number;
}

export const EMPTY_EDIT: EditState = { value: "", cursor: 0 };

function chars(value: string): string[] {
  return Array.from(value);
}

export function insert(state: EditState, text: string): EditState {
  const list = chars(state.value);
  const added = chars(text.replaceAll("\r\n", "\n").replaceAll("\r", "\n"));
  list.splice(state.cursor, 0, ...added);
  return { value: list.join(""), cursor: state.cursor + added.length };
}

export function backspace(state: EditState): EditState {
  if (state.cursor === 0) return state;
  const list = chars(state.value);
  list.splice(state.cursor - 1, 1);
  return { value: list.join(""), cursor: state.cursor - 1 };
}

export function moveHorizontal(state: EditState, delta: number): EditState {
  const length = chars(state.value).length;
  return { ...state, cursor: Math.max(0, Math.min(length, state.cursor + delta)) };
}

/** The cursor's line and display column. */
export function cursorPosition(state: EditState): { line: number; column: number } {
  const before = chars(state.value).slice(0, state.cursor).join("").split("\n");
  return { line: before.length - 1, column: stringWidth(before.at(-1) ?? "") };
}

/** Moves to the same display column on the line above (-1) or below (+1); null at the edge. */
export function moveVertical(state: EditState, delta: number): EditState | null {
  const lines = state.value.split("\n");
  const { line, column } = cursorPosition(state);
  const target = line + delta;
  if (target < 0 || target >= lines.length) return null;
  let cursor = lines.slice(0, target).reduce((sum, text) => sum + chars(text).length + 1, 0);
  let width = 0;
  for (const char of chars(lines[target]!)) {
    const next = width + stringWidth(char);
    if (next > column) break;
    width = next;
    cursor++;
  }
  return { ...state, cursor };
}
