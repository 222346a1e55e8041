/**
 * @module
 * The string-replacement rules edit_file and multi_edit share: exact matches only, exactly once unless
 * replace_all, a uniform CRLF file edited as LF and written back as CRLF, and the file's encoding and
 * BOM kept. An old_string pasted with read_file's line numbers still matches (_gutter.ts). Failures name
 * the edit, the match count and the lines.
 */
import { type FileChange, type FileTouch, ToolError } from "../tool.ts";
import { withoutGutters } from "./_gutter.ts";
import { encodeText, type TextFile } from "./_text_file.ts";

export interface TextEdit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export interface EditOutcome {
  created: boolean;
  /** LF-normalised texts, for the diff. */
  before: string;
  after: string;
  /** What goes to disk. */
  oldText: string | null;
  newText: string;
  bytes: Uint8Array;
  /** The file's bytes as read; null when it did not exist. */
  raw: Uint8Array | null;
  replacements: number;
  /** Edits whose old_string matched only once read_file's line-number gutter was taken off. */
  guttered: number;
}

/** The file an edit plan replaces, for the stale check and checkpoints. */
export function touchOf(plan: EditOutcome & { abs: string; shown: string }): FileTouch {
  return { abs: plan.abs, shown: plan.shown, before: plan.raw, after: plan.bytes };
}

/** Told to the model when an edit matched only without read_file's line numbers. */
export function gutterNote(plan: EditOutcome): string {
  if (plan.guttered === 0) return "";
  return "\n(old_string matched once read_file's line-number prefixes were removed; leave them out)";
}

/** The preview of an edit plan: what permission prompts and checkpoints show. */
export function planChange(plan: EditOutcome & { shown: string }): FileChange {
  return {
    path: plan.shown,
    kind: plan.created ? "create" : "modify",
    oldText: plan.oldText,
    newText: plan.newText,
  };
}

export interface ApplyEditsOptions {
  /** The path as shown to the model. */
  shown: string;
  /** How a failure names the edit, after "Cannot " (edit_file: `edit "a.ts"`). */
  label: (index: number) => string;
}

/** Applies `edits` in order, in memory; any failing edit throws and nothing is produced. */
export function applyEdits(
  file: TextFile | null,
  edits: readonly TextEdit[],
  options: ApplyEditsOptions,
): EditOutcome {
  const { shown, label } = options;
  if (file === null && edits[0]?.old_string !== "") {
    throw new ToolError("tool.not_found", `Cannot edit "${shown}": no such file; create it with write_file`);
  }
  const original = file?.text ?? "";
  const crlf = isUniformCrlf(original);
  const before = crlf ? original.replaceAll("\r\n", "\n") : original;
  let after = before;
  let replacements = 0;
  let guttered = 0;
  edits.forEach((edit, index) => {
    if (edit.old_string === "" && after !== "") {
      throw new ToolError(
        "tool.edit_no_match",
        `Cannot ${
          label(index)
        }: old_string is empty but the file already has content; give the text to replace`,
      );
    }
    const { needle, replacement, ungutteredOld } = withoutGutters(after, {
      needle: crlf ? edit.old_string.replaceAll("\r\n", "\n") : edit.old_string,
      replacement: crlf ? edit.new_string.replaceAll("\r\n", "\n") : edit.new_string,
      ungutteredOld: false,
    }, label(index));
    if (ungutteredOld) guttered++;
    const done = replaceText(after, needle, replacement, {
      all: edit.replace_all ?? false,
      label: label(index),
    });
    after = done.after;
    replacements += done.replacements;
  });
  const newText = crlf ? after.replaceAll("\n", "\r\n") : after;
  const bytes = file === null
    ? new TextEncoder().encode(newText)
    : encodeText(newText, file.encoding, file.bom);
  return {
    created: file === null,
    before,
    after,
    oldText: file?.text ?? null,
    newText,
    bytes,
    raw: file?.raw ?? null,
    replacements,
    guttered,
  };
}

export function isUniformCrlf(text: string): boolean {
  return text.includes("\r\n") && !/(^|[^\r])\n/.test(text);
}

/** 1-based line of the character at `index`. */
export function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf("\n"); at !== -1 && at < index; at = text.indexOf("\n", at + 1)) line++;
  return line;
}

/** "1, 3, 5" for at most 20 lines, then ", …". */
export function lineList(lines: readonly number[]): string {
  return lines.slice(0, 20).join(", ") + (lines.length > 20 ? ", …" : "");
}

function replaceText(
  text: string,
  needle: string,
  replacement: string,
  options: { all: boolean; label: string },
): { after: string; replacements: number } {
  if (needle === "") return { after: replacement, replacements: 1 };
  const positions = findAll(text, needle);
  if (positions.length === 0) throw noMatch(text, needle, options.label);
  if (positions.length > 1 && !options.all) {
    const lines = lineList(positions.map((at) => lineAt(text, at)));
    throw new ToolError(
      "tool.edit_ambiguous",
      `Cannot ${options.label}: old_string occurs ${positions.length} times (at lines ${lines}); include ` +
        "more surrounding context to make it unique, or set replace_all to true",
    );
  }
  if (options.all) return { after: text.split(needle).join(replacement), replacements: positions.length };
  const at = positions[0]!;
  return { after: text.slice(0, at) + replacement + text.slice(at + needle.length), replacements: 1 };
}

function findAll(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) out.push(at);
  return out;
}

function noMatch(text: string, needle: string, label: string): ToolError {
  const near = looseMatchLine(text, needle);
  const hint = near === null
    ? "; check whitespace and indentation, and read the file again to copy the exact text"
    : `; a match that differs only in whitespace or indentation starts at line ${near}, copy it exactly`;
  return new ToolError("tool.edit_no_match", `Cannot ${label}: old_string was not found${hint}`);
}

/** Line number where `needle` matches once whitespace runs are collapsed and lines trimmed. */
function looseMatchLine(text: string, needle: string): number | null {
  const squash = (line: string) => line.trim().replace(/\s+/g, " ");
  const hay = text.split("\n").map(squash);
  const wanted = needle.replaceAll("\r\n", "\n").split("\n").map(squash);
  while (wanted.length > 0 && wanted[0] === "") wanted.shift();
  while (wanted.length > 0 && wanted.at(-1) === "") wanted.pop();
  if (wanted.length === 0) return null;
  for (let start = 0; start + wanted.length <= hay.length; start++) {
    if (wanted.every((line, j) => linesMatch(hay[start + j]!, line, j, wanted.length))) return start + 1;
  }
  return null;
}

function linesMatch(hay: string, wanted: string, index: number, count: number): boolean {
  if (count === 1) return hay.includes(wanted);
  if (index === 0) return hay.endsWith(wanted);
  if (index === count - 1) return hay.startsWith(wanted);
  return hay === wanted;
}
