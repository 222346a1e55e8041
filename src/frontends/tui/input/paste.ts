/**
 * @module
 * A large paste shows in the input as one placeholder token (`[Pasted text #1 · 42 lines]`) and is
 * sent whole: on submit every placeholder is replaced by the text it stands for. Backspace right
 * after a placeholder removes all of it, so a half-deleted token never reaches the model.
 */
import { t } from "../../../lib/i18n/mod.ts";
import type { EditState } from "../input_edit.ts";

export const PASTE_MAX_LINES = 10;
export const PASTE_MAX_CHARS = 800;

export interface PastedBlock {
  label: string;
  text: string;
}

export function normalizePaste(text: string): string {
  return text.replaceAll("\r\n", "\n").replaceAll("\r", "\n");
}

export function lineCount(text: string): number {
  return text.replace(/\n$/, "").split("\n").length;
}

/** More than ~10 lines or ~800 characters. */
export function isLargePaste(text: string): boolean {
  return lineCount(text) > PASTE_MAX_LINES || Array.from(text).length > PASTE_MAX_CHARS;
}

/** The placeholder for the `n`th paste of this prompt. */
export function pasteLabel(n: number, text: string): string {
  const lines = lineCount(text);
  return lines > 1
    ? t("input.paste_lines", { n, lines })
    : t("input.paste_chars", { n, chars: Array.from(text).length });
}

/** The text with every placeholder replaced by what was pasted. */
export function expandPastes(value: string, blocks: readonly PastedBlock[]): string {
  let out = value;
  for (const block of blocks) out = out.replaceAll(block.label, () => block.text);
  return out;
}

/** Backspace over a whole placeholder that ends at the cursor; null when none does. */
export function backspacePlaceholder(state: EditState, blocks: readonly PastedBlock[]): EditState | null {
  const chars = Array.from(state.value);
  const before = chars.slice(0, state.cursor).join("");
  const block = blocks.find((candidate) => before.endsWith(candidate.label));
  if (!block) return null;
  const length = Array.from(block.label).length;
  chars.splice(state.cursor - length, length);
  return { value: chars.join(""), cursor: state.cursor - length };
}
