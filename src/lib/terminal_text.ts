/**
 * @module
 * Text that others produced (the model, a tool, a file name) made safe to write to a terminal: no
 * escape sequence, control character or bidi override gets through. `stripControls` removes whole
 * sequences from prose; `escapeControls` shows each control as a visible mark, for what a human must
 * read exactly (a command, a path, a diff). Newlines, tabs, CJK and emoji are kept.
 */

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const ST = 0x9c;
/** ESC followed by one of these (or the C1 form) opens a string ended by ST or BEL: OSC, DCS, SOS, PM, APC. */
const STRING_OPENERS = new Set([0x5d, 0x50, 0x58, 0x5e, 0x5f]);
const C1_STRING_OPENERS = new Set([0x9d, 0x90, 0x98, 0x9e, 0x9f]);
const C1_CSI = 0x9b;
/** Unterminated sequences held back between stream chunks; beyond this the opener is dropped. */
const MAX_PENDING = 8192;

/**
 * What `stripControls` acts on: controls but newline and tab, bidi controls (ALM, LRM, RLM, LRE…RLO,
 * LRI…PDI) and the line separators. Text between two of them is copied as it is.
 */
// deno-lint-ignore no-control-regex
const SPECIAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
/** What `escapeControls` marks: controls, bidi, separators and the zero-width characters that hide text. */
const VISIBLE_MARKED =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** Where a control sequence starting at `start` ends; `complete` is false when the text ran out first. */
interface Span {
  end: number;
  complete: boolean;
  /** Length of the sequence's opener (ESC ] or U+009D...), dropped alone when it never completes. */
  opener: number;
}

function spanAt(text: string, start: number): Span {
  const code = text.charCodeAt(start);
  if (code === C1_CSI) return csi(text, start + 1, 1);
  if (C1_STRING_OPENERS.has(code)) return controlString(text, start + 1, 1);
  if (code !== ESC) return { end: start + 1, complete: true, opener: 1 };
  const next = start + 1;
  if (next >= text.length) return { end: text.length, complete: false, opener: 1 };
  const kind = text.charCodeAt(next);
  if (kind === 0x5b) return csi(text, next + 1, 2);
  if (STRING_OPENERS.has(kind)) return controlString(text, next + 1, 2);
  if (kind >= 0x20 && kind <= 0x2f) return escapeWithIntermediates(text, next);
  if (kind >= 0x30 && kind <= 0x7e) return { end: next + 1, complete: true, opener: 2 };
  return { end: next, complete: true, opener: 1 };
}

/** CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, one final byte 0x40–0x7E. */
function csi(text: string, from: number, opener: number): Span {
  let at = from;
  while (at < text.length && inRange(text.charCodeAt(at), 0x20, 0x3f)) at++;
  if (at >= text.length) return { end: text.length, complete: false, opener };
  const final = text.charCodeAt(at);
  return { end: inRange(final, 0x40, 0x7e) ? at + 1 : at, complete: true, opener };
}

/** OSC, DCS, SOS, PM, APC: everything up to BEL or ST; CAN, SUB or another ESC abort it. */
function controlString(text: string, from: number, opener: number): Span {
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === BEL || code === ST || code === CAN || code === SUB) {
      return { end: at + 1, complete: true, opener };
    }
    if (code !== ESC) continue;
    if (at + 1 >= text.length) break;
    return { end: text.charCodeAt(at + 1) === 0x5c ? at + 2 : at, complete: true, opener };
  }
  return { end: text.length, complete: false, opener };
}

function escapeWithIntermediates(text: string, from: number): Span {
  let at = from;
  while (at < text.length && inRange(text.charCodeAt(at), 0x20, 0x2f)) at++;
  if (at >= text.length) return { end: text.length, complete: false, opener: 1 };
  return { end: inRange(text.charCodeAt(at), 0x30, 0x7e) ? at + 1 : at, complete: true, opener: 1 };
}

function inRange(code: number, low: number, high: number): boolean {
  return code >= low && code <= high;
}

function isControl(code: number): boolean {
  return code < 0x20 || inRange(code, 0x7f, 0x9f);
}

/**
 * One pass over `text`. Returns the clean text and where an unfinished sequence starts (to be held
 * back for the next chunk), or -1 when `final` or nothing is unfinished.
 */
function strip(text: string, final: boolean): { clean: string; held: number } {
  let out = "";
  let at = 0;
  while (at < text.length) {
    SPECIAL.lastIndex = at;
    const next = SPECIAL.exec(text)?.index ?? text.length;
    out += text.slice(at, next);
    at = next;
    if (at >= text.length) break;
    const code = text.charCodeAt(at);
    if (code === 0x0d) {
      if (at + 1 >= text.length && !final) return { clean: out, held: at };
      out += "\n";
      at += text.charCodeAt(at + 1) === 0x0a ? 2 : 1;
    } else if (isControl(code)) {
      const span = spanAt(text, at);
      if (span.complete) at = span.end;
      else if (!final && text.length - at < MAX_PENDING) return { clean: out, held: at };
      else at += span.opener;
    } else {
      if (code === 0x2028 || code === 0x2029) out += "\n";
      at++;
    }
  }
  return { clean: out, held: -1 };
}

/** Prose for a terminal: escape sequences removed whole, other controls dropped, `\r` read as a newline. */
export function stripControls(text: string): string {
  return strip(text, true).clean;
}

/** Each control, bidi or zero-width character as a visible mark: `␛` for ESC, `␇` for BEL, `<U+202E>`. */
export function escapeControls(text: string): string {
  return text.replace(VISIBLE_MARKED, (char) => {
    const code = char.charCodeAt(0);
    if (code < 0x20) return String.fromCharCode(0x2400 + code);
    if (code === 0x7f) return "␡";
    return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
  });
}

/** `stripControls` for text that arrives in pieces: a sequence split across pieces is still removed whole. */
export class ControlStripper {
  #pending = "";

  push(chunk: string): string {
    const text = this.#pending + chunk;
    const { clean, held } = strip(text, false);
    this.#pending = held < 0 ? "" : text.slice(held);
    return clean;
  }

  /** The end of the stream: whatever was held back, with an unfinished sequence's opener dropped. */
  flush(): string {
    const rest = this.#pending;
    this.#pending = "";
    return rest ? stripControls(rest) : "";
  }
}

/**
 * JSON text that is also safe to print: JSON.stringify leaves C1 controls, bidi controls and the
 * line separators raw, so they become `\u` escapes. JSON's own syntax is ASCII, so these can only
 * sit inside strings, and the parsed value is unchanged.
 */
export function terminalSafeJson(json: string): string {
  return json.replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
