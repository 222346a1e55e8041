/**
 * @module
 * The standing instructions `/remember` adds to an instruction file: `- <note>` lines under one
 * heading of their own, so `/forget` only ever removes what `/remember` wrote.
 */

export const NOTES_HEADING = "## Notes added with /remember";

/** The notes in an instruction file's text, in order. */
export function notesIn(text: string): string[] {
  const lines = text.split("\n");
  const { start, end } = section(lines);
  if (start < 0) return [];
  return lines.slice(start + 1, end).flatMap((line) => /^- \S/.test(line) ? [line.slice(2).trim()] : []);
}

/** The text with `note` appended to the notes section (created at the end when missing). */
export function withNote(text: string, note: string): string {
  const lines = trimEnd(text).split("\n");
  const { start, end } = section(lines);
  const bullet = `- ${oneLine(note)}`;
  if (start < 0) {
    const before = lines.length === 1 && lines[0] === "" ? [] : [...lines, ""];
    return [...before, NOTES_HEADING, "", bullet, ""].join("\n");
  }
  let at = start + 1;
  for (let i = start + 1; i < end; i++) if (/^- \S/.test(lines[i]!)) at = i + 1;
  if (at === start + 1) lines.splice(at++, 0, "");
  lines.splice(at, 0, bullet);
  return lines.join("\n") + "\n";
}

/** The text without the `index`-th note (0-based, as `notesIn` lists them). */
export function withoutNote(text: string, index: number): string {
  const lines = text.split("\n");
  const { start, end } = section(lines);
  let seen = -1;
  for (let i = start + 1; start >= 0 && i < end; i++) {
    if (!/^- \S/.test(lines[i]!) || ++seen !== index) continue;
    lines.splice(i, 1);
    return lines.join("\n");
  }
  return text;
}

/** A note as one line: `#note` and `/remember` never write more than a line. */
export function oneLine(note: string): string {
  return note.replace(/\s*\n\s*/g, " ").trim();
}

function section(lines: readonly string[]): { start: number; end: number } {
  const start = lines.findIndex((line) => line.trim() === NOTES_HEADING);
  if (start < 0) return { start, end: start };
  const next = lines.findIndex((line, i) => i > start && /^#{1,6}\s/.test(line));
  return { start, end: next < 0 ? lines.length : next };
}

function trimEnd(text: string): string {
  return text.replace(/\s+$/, "");
}
