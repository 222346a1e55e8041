/**
 * @module
 * Finds where keys sit in TOML source. smol-toml reports positions only for syntax errors, so this
 * scanner walks text that already parsed and records, for every key path, the offsets of its key and
 * its value, plus the sections (`[table]`, `[[array]]` items, the root) that hold key/value lines.
 */

export type KeyPath = readonly (string | number)[];

export interface Position {
  line: number;
  column: number;
}

export type EntryKind = "header" | "dotted" | "value";

export interface Entry {
  kind: EntryKind;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
  /** The first character of the value: `{`, `[`, a quote, or a scalar's first character. */
  valueShape: string;
  /** Index into `sections` of the section whose lines define this entry (`-1` inside inline values). */
  section: number;
}

export interface Section {
  path: KeyPath;
  /** Offset of the header line (0 for the root). */
  start: number;
  /** Offset just past the last line that belongs to this section's key/value lines (or its header). */
  bodyEnd: number;
  /** Indentation of the last key/value line, reused for inserted lines. */
  indent: string;
}

export function pathId(path: KeyPath): string {
  return JSON.stringify(path);
}

export class TomlLocator {
  readonly text: string;
  readonly entries: Map<string, Entry> = new Map();
  readonly sections: Section[] = [];
  #lineStarts: number[] = [0];

  constructor(text: string) {
    this.text = text;
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") this.#lineStarts.push(i + 1);
    new Scanner(this).run();
  }

  entry(path: KeyPath): Entry | undefined {
    return this.entries.get(pathId(path));
  }

  /** The key's position, or the nearest recorded ancestor's, or 1:1. */
  keyPosition(path: KeyPath): Position {
    for (let depth = path.length; depth > 0; depth--) {
      const found = this.entries.get(pathId(path.slice(0, depth)));
      if (found) return this.position(found.keyStart);
    }
    return { line: 1, column: 1 };
  }

  valuePosition(path: KeyPath): Position {
    const found = this.entries.get(pathId(path));
    return found ? this.position(found.valueStart) : this.keyPosition(path);
  }

  position(offset: number): Position {
    let low = 0;
    let high = this.#lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.#lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - this.#lineStarts[low]! + 1 };
  }

  lineEnd(offset: number): number {
    const newline = this.text.indexOf("\n", offset);
    return newline === -1 ? this.text.length : newline + 1;
  }

  lineStart(offset: number): number {
    return this.text.lastIndexOf("\n", offset - 1) + 1;
  }
}

const BARE_KEY = /[A-Za-z0-9_-]/;

class Scanner {
  #loc: TomlLocator;
  #text: string;
  #pos = 0;
  #arrayCounts = new Map<string, number>();
  #prefix: (string | number)[] = [];
  #section = 0;

  constructor(locator: TomlLocator) {
    this.#loc = locator;
    this.#text = locator.text;
    locator.sections.push({ path: [], start: 0, bodyEnd: 0, indent: "" });
  }

  run(): void {
    while (this.#pos < this.#text.length) {
      this.#skipBlank(true);
      if (this.#pos >= this.#text.length) break;
      const lineStart = this.#loc.lineStart(this.#pos);
      if (this.#text[this.#pos] === "[") this.#header(lineStart);
      else this.#keyValue(lineStart);
      this.#skipBlank(false);
      if (this.#text[this.#pos] === "#") this.#skipComment();
      const section = this.#loc.sections[this.#section]!;
      section.bodyEnd = this.#loc.lineEnd(this.#pos);
      this.#pos = section.bodyEnd;
    }
  }

  #header(lineStart: number): void {
    const array = this.#text.startsWith("[[", this.#pos);
    const keyStart = this.#pos + (array ? 2 : 1);
    this.#pos = keyStart;
    this.#skipBlank(false);
    const segments = this.#readKey();
    this.#skipBlank(false);
    this.#pos += array ? 2 : 1;
    const resolved: (string | number)[] = [];
    segments.forEach((segment, index) => {
      resolved.push(segment);
      const count = this.#arrayCounts.get(pathId(resolved));
      const last = index === segments.length - 1;
      if (count !== undefined && !(last && array)) resolved.push(count - 1);
    });
    const entry = (valueEnd: number): Entry => ({
      kind: "header",
      keyStart,
      valueStart: keyStart,
      valueEnd,
      valueShape: "{",
      section: this.#loc.sections.length,
    });
    if (array) {
      const id = pathId(resolved);
      const index = this.#arrayCounts.get(id) ?? 0;
      this.#arrayCounts.set(id, index + 1);
      if (index === 0) this.#loc.entries.set(id, { ...entry(this.#pos), valueShape: "[" });
      resolved.push(index);
    }
    this.#loc.entries.set(pathId(resolved), entry(this.#pos));
    this.#prefix = resolved;
    this.#section = this.#loc.sections.length;
    this.#loc.sections.push({ path: resolved, start: lineStart, bodyEnd: 0, indent: "" });
  }

  #keyValue(lineStart: number): void {
    const section = this.#loc.sections[this.#section]!;
    section.indent = this.#text.slice(lineStart, this.#pos);
    this.#pair(this.#prefix, this.#section);
  }

  #pair(prefix: KeyPath, section: number): void {
    const keyStart = this.#pos;
    const segments = this.#readKey();
    this.#skipBlank(false);
    if (this.#text[this.#pos] === "=") this.#pos++;
    this.#skipBlank(false);
    for (let depth = 1; depth < segments.length; depth++) {
      const id = pathId([...prefix, ...segments.slice(0, depth)]);
      if (!this.#loc.entries.has(id)) {
        this.#loc.entries.set(id, {
          kind: "dotted",
          keyStart,
          valueStart: keyStart,
          valueEnd: keyStart,
          valueShape: "{",
          section,
        });
      }
    }
    this.#value([...prefix, ...segments], { kind: "value", keyStart, section });
  }

  #value(path: KeyPath, at: { kind: EntryKind; keyStart: number; section: number }): void {
    const valueStart = this.#pos;
    const shape = this.#text[this.#pos] ?? "";
    if (shape === "[") this.#array(path);
    else if (shape === "{") this.#inlineTable(path);
    else if (shape === '"' || shape === "'") this.#string(shape);
    else this.#scalar();
    this.#loc.entries.set(pathId(path), { ...at, valueStart, valueEnd: this.#pos, valueShape: shape });
  }

  #array(path: KeyPath): void {
    this.#pos++;
    for (let index = 0;; index++) {
      this.#skipBlank(true);
      if (this.#pos >= this.#text.length || this.#text[this.#pos] === "]") break;
      const start = this.#pos;
      this.#value([...path, index], { kind: "value", keyStart: start, section: -1 });
      this.#skipBlank(true);
      if (this.#text[this.#pos] === ",") this.#pos++;
    }
    this.#pos++;
  }

  #inlineTable(path: KeyPath): void {
    this.#pos++;
    while (this.#pos < this.#text.length) {
      this.#skipBlank(true);
      if (this.#text[this.#pos] === "}") break;
      this.#pair(path, -1);
      this.#skipBlank(true);
      if (this.#text[this.#pos] === ",") this.#pos++;
    }
    this.#pos++;
  }

  #string(quote: string): void {
    const triple = this.#text.startsWith(quote.repeat(3), this.#pos);
    const literal = quote === "'";
    this.#pos += triple ? 3 : 1;
    while (this.#pos < this.#text.length) {
      const char = this.#text[this.#pos];
      if (char === "\\" && !literal) {
        this.#pos += 2;
        continue;
      }
      if (char === quote && (!triple || this.#text.startsWith(quote.repeat(3), this.#pos))) {
        this.#pos += triple ? 3 : 1;
        // A closing `"""` may be preceded by up to two quotes that belong to the content.
        while (triple && this.#text[this.#pos] === quote) this.#pos++;
        return;
      }
      this.#pos++;
    }
  }

  #scalar(): void {
    const start = this.#pos;
    while (this.#pos < this.#text.length && !",]}\n\r#".includes(this.#text[this.#pos]!)) this.#pos++;
    while (this.#pos > start && /[ \t]/.test(this.#text[this.#pos - 1]!)) this.#pos--;
  }

  #readKey(): string[] {
    const segments: string[] = [];
    while (this.#pos < this.#text.length) {
      const char = this.#text[this.#pos]!;
      if (char === '"' || char === "'") {
        const start = this.#pos;
        this.#string(char);
        segments.push(unquote(this.#text.slice(start, this.#pos)));
      } else {
        const start = this.#pos;
        while (this.#pos < this.#text.length && BARE_KEY.test(this.#text[this.#pos]!)) this.#pos++;
        if (this.#pos === start) break;
        segments.push(this.#text.slice(start, this.#pos));
      }
      this.#skipBlank(false);
      if (this.#text[this.#pos] !== ".") break;
      this.#pos++;
      this.#skipBlank(false);
    }
    return segments;
  }

  #skipBlank(newlines: boolean): void {
    while (this.#pos < this.#text.length) {
      const char = this.#text[this.#pos]!;
      if (char === " " || char === "\t") this.#pos++;
      else if (newlines && (char === "\n" || char === "\r")) this.#pos++;
      else if (newlines && char === "#") this.#skipComment();
      else break;
    }
  }

  #skipComment(): void {
    while (this.#pos < this.#text.length && this.#text[this.#pos] !== "\n") this.#pos++;
  }
}

function unquote(raw: string): string {
  if (raw.startsWith("'")) return raw.slice(1, -1);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}
