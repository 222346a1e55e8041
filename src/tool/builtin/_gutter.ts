/**
 * @module
 * read_file's line-number gutter ("12<TAB>text"; older sessions show "  12→text") recognised in an
 * old_string the model copied with the gutter, so the edit still lands on the text it meant.
 */
import { ToolError } from "../tool.ts";

/** A gutter at the start of a line; a blank line may have lost its tab when copied. */
const GUTTER = /^ *(\d+)(?:\t|→|$)/;
const FULL_GUTTER = /^ *\d+(?:\t|→)/;

export interface EditTexts {
  needle: string;
  replacement: string;
  /** Whether read_file's gutter was taken off old_string. */
  ungutteredOld: boolean;
}

/**
 * The edit's texts, without gutters when old_string only matches `text` once they are gone: every line of
 * old_string must carry one, numbered consecutively. new_string loses its gutters only when all its lines
 * carry one; a new_string gutters on some lines only is refused, as no reading of it is safe.
 */
export function withoutGutters(text: string, texts: EditTexts, label: string): EditTexts {
  const { needle, replacement } = texts;
  if (needle === "" || text.includes(needle)) return texts;
  const bare = stripGutter(needle, true);
  if (bare === null || bare === "" || !text.includes(bare)) return texts;
  if (replacement === "") return { needle: bare, replacement, ungutteredOld: true };
  const bareReplacement = stripGutter(replacement, false);
  if (bareReplacement !== null) return { needle: bare, replacement: bareReplacement, ungutteredOld: true };
  if (replacement.split("\n").some((line) => FULL_GUTTER.test(line))) {
    throw new ToolError(
      "tool.edit_gutter",
      `Cannot ${label}: old_string carries read_file's line numbers and new_string carries them on some ` +
        "lines only; resend both without the line-number prefixes",
    );
  }
  return { needle: bare, replacement, ungutteredOld: true };
}

/** `text` without the gutter of each line; null unless every line has one (consecutive if asked). */
export function stripGutter(text: string, consecutive: boolean): string | null {
  const lines = text.split("\n");
  const out: string[] = [];
  let next: number | null = null;
  for (const [index, line] of lines.entries()) {
    // The empty piece after a final newline is not a line of its own.
    if (line === "" && index === lines.length - 1 && index > 0) {
      out.push(line);
      continue;
    }
    const gutter = GUTTER.exec(line);
    if (gutter === null) return null;
    const number = Number(gutter[1]);
    if (consecutive && next !== null && number !== next) return null;
    next = number + 1;
    out.push(line.slice(gutter[0].length));
  }
  return out.join("\n");
}
