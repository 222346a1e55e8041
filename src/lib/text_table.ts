/**
 * @module
 * Key/value output (`/status`, `/cost`, `/sandbox`) as two aligned columns for a terminal of a given
 * width: a long value wraps under its own column, never back under the keys.
 */

/** What commands print for when the face gives no width (line mode, `reasonix run`, tests). */
export const DEFAULT_TABLE_WIDTH = 80;

const GAP = 2;
/** Below this the value column would be unreadable: it keeps this width and the line runs long. */
const MIN_VALUE_WIDTH = 16;

/** A value given as a list (paths) wraps between its items, cutting an item only when it is wider than the column. */
export type TableRow = readonly [key: string, value: string | readonly string[]];

export function keyValueTable(rows: readonly TableRow[], width: number = DEFAULT_TABLE_WIDTH): string {
  const keyWidth = Math.max(0, ...rows.map(([key]) => displayWidth(key)));
  const valueWidth = Math.max(MIN_VALUE_WIDTH, width - keyWidth - GAP);
  const indent = " ".repeat(keyWidth + GAP);
  return rows.flatMap(([key, value]) => {
    const lines = typeof value === "string"
      ? value.split("\n").flatMap((paragraph) => wrapText(paragraph, valueWidth))
      : wrapWords(value.map((item, at) => at < value.length - 1 ? `${item}, ` : item), valueWidth);
    const head = `${key}${" ".repeat(keyWidth - displayWidth(key) + GAP)}`;
    return lines.map((line, index) => `${index === 0 ? head : indent}${line}`.trimEnd());
  }).join("\n");
}

/** Word-wraps one paragraph to `width` columns; a word longer than a line is cut where it overflows. */
export function wrapText(text: string, width: number): string[] {
  return wrapWords(text.split(/(?<= )/), width);
}

/** Lays words (each with the spaces that follow it) onto lines of at most `width` columns. */
function wrapWords(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && displayWidth(line.trimEnd()) + displayWidth(word.trimEnd()) > width) {
      lines.push(line.trimEnd());
      line = "";
    }
    line += word;
    while (displayWidth(line.trimEnd()) > width) {
      const [head, rest] = cut(line, width);
      lines.push(head);
      line = rest;
    }
  }
  lines.push(line.trimEnd());
  return lines;
}

function cut(text: string, width: number): [string, string] {
  let used = 0;
  let at = 0;
  for (const char of text) {
    const size = displayWidth(char);
    if (used + size > width) break;
    used += size;
    at += char.length;
  }
  return [text.slice(0, Math.max(at, 1)), text.slice(Math.max(at, 1))];
}

/** Terminal columns: East Asian wide and fullwidth characters take two, combining marks none. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) {
    if (/\p{Mn}|\p{Me}|[\u200b-\u200f]/u.test(char)) continue;
    width += WIDE.test(char) ? 2 : 1;
  }
  return width;
}

const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u;
