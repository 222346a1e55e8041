/**
 * @module
 * The input's text as rows to draw: one per line, and when the text is taller than the rows it may
 * take, cut by display width into terminal rows and windowed around the cursor, so a long prompt
 * never outgrows the screen.
 */
import stringWidth from "string-width";
import type { EditState } from "../input_edit.ts";

export interface RenderedLine {
  before: string;
  /** The character under the cursor (a space at the end of a line); null on other lines. */
  cursor: string | null;
  after: string;
}

export interface VisibleRows {
  lines: RenderedLine[];
  /** Rows cut off above and below the window. */
  hidden: number;
}

/** The lines of `edit`, the cursor's one split around it. */
export function renderLines(edit: EditState): RenderedLine[] {
  const lines: RenderedLine[] = [];
  let current: string[] = [];
  let cursorAt = -1;
  const flush = () => {
    lines.push(
      cursorAt < 0 ? { before: current.join(""), cursor: null, after: "" } : {
        before: current.slice(0, cursorAt).join(""),
        cursor: current[cursorAt] ?? " ",
        after: current.slice(cursorAt + 1).join(""),
      },
    );
    current = [];
    cursorAt = -1;
  };
  const chars = Array.from(edit.value);
  chars.forEach((char, index) => {
    if (index === edit.cursor) cursorAt = current.length;
    if (char === "\n") flush();
    else current.push(char);
  });
  if (edit.cursor === chars.length) cursorAt = current.length;
  flush();
  return lines;
}

/** At most `maxRows` rows of `columns` cells (a mark row included when some are cut). */
export function visibleRows(edit: EditState, columns: number, maxRows: number): VisibleRows {
  const lines = renderLines(edit);
  const cells = Math.max(1, columns);
  const height = lines.reduce((sum, line) => sum + Math.max(1, Math.ceil(lineWidth(line) / cells)), 0);
  if (height <= maxRows) return { lines, hidden: 0 };
  const rows = lines.flatMap((line) => cutLine(line, cells));
  const cursorRow = Math.max(0, rows.findIndex((row) => row.cursor !== null));
  const room = Math.max(1, maxRows - 1);
  const start = Math.max(0, Math.min(cursorRow - room + 1, rows.length - room));
  return { lines: rows.slice(start, start + room), hidden: rows.length - room };
}

function lineWidth(line: RenderedLine): number {
  return stringWidth(line.before) + stringWidth(line.cursor ?? "") + stringWidth(line.after);
}

/** One line as rows of at most `cells` display cells; the cursor stays in the row that holds it. */
function cutLine(line: RenderedLine, cells: number): RenderedLine[] {
  const pieces = [
    ...Array.from(line.before).map((char) => ({ char, cursor: false })),
    ...(line.cursor === null ? [] : [{ char: line.cursor, cursor: true }]),
    ...Array.from(line.after).map((char) => ({ char, cursor: false })),
  ];
  const rows: RenderedLine[] = [];
  let row: RenderedLine = { before: "", cursor: null, after: "" };
  let used = 0;
  for (const piece of pieces) {
    const width = stringWidth(piece.char);
    if (used + width > cells && used > 0) {
      rows.push(row);
      row = { before: "", cursor: null, after: "" };
      used = 0;
    }
    if (piece.cursor) row.cursor = piece.char;
    else if (row.cursor === null) row.before += piece.char;
    else row.after += piece.char;
    used += width;
  }
  rows.push(row);
  return rows;
}
