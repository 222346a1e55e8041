/**
 * @module
 * Characters that make a command line read differently from how it runs: invisible and bidi controls,
 * odd spaces and control characters anywhere, and outside quotes any non-ASCII character (a Cyrillic
 * `с` in `сat`, a fullwidth `；`, U+2044 `⁄` for `/`). Quoted text may hold ordinary non-ASCII
 * (`echo "你好"`). `escapeInvisible()` is how the approval card shows such a command.
 */

const HIDDEN =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000B-\u001F\u007F-\u00A0\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB\u{E0000}-\u{E007F}]/u;

/** Scripts with no letters that pass for ASCII ones. */
const PLAIN_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export interface CharacterProblem {
  class: "lookalike-characters" | "top-level-newline";
  reason: string;
}

/** The first misleading character of `source`; `quoted` are the [start, end) ranges of quoted text. */
export function characterProblem(
  source: string,
  quoted: readonly (readonly [number, number])[],
): CharacterProblem | null {
  let range = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code >= 0x20 && code < 0x7f || code === 0x0a || code === 0x09) continue;
    while (range < quoted.length && quoted[range]![1] <= i) range++;
    const inQuotes = range < quoted.length && quoted[range]![0] <= i;
    const char = String.fromCodePoint(source.codePointAt(i)!);
    if (char === "\r" && !inQuotes) {
      return { class: "top-level-newline", reason: "a carriage return can start another command" };
    }
    const shown = escapeInvisible(char);
    if (HIDDEN.test(char)) {
      return {
        class: "lookalike-characters",
        reason: `the line holds the invisible or control character ${shown}`,
      };
    }
    if (!inQuotes && !PLAIN_SCRIPTS.test(char)) {
      return {
        class: "lookalike-characters",
        reason: `"${char}" (${codePoint(char)}) outside quotes can pass for another character`,
      };
    }
    if (char.length === 2) i++;
  }
  return null;
}

/** Shows invisible, bidi and control characters as `\uXXXX` so a reader sees what will run. */
export function escapeInvisible(text: string): string {
  let out = "";
  for (const char of text) {
    out += char !== "\n" && char !== "\t" && HIDDEN.test(char) ? `\\u${hex(char)}` : char;
  }
  return out;
}

function hex(char: string): string {
  const code = char.codePointAt(0)!;
  return code > 0xffff
    ? `{${code.toString(16).toUpperCase()}}`
    : code.toString(16).toUpperCase().padStart(4, "0");
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}
