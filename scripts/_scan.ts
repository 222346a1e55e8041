/**
 * @module
 * A small TypeScript lexer for the repo checkers: blanks comments, string contents, template text and
 * regex bodies with spaces (newlines kept) so offsets and line numbers still match the source.
 */

export interface ScannedSource {
  /** Comments, strings, template text and regex bodies blanked; quotes, `${` and `}` kept. */
  code: string;
  /** Only comments blanked. */
  noComments: string;
}

const WORD = /[\w$]/;
/** After these words a `/` starts a regex, not a division. */
const REGEX_AFTER_WORD = new Set([
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "instanceof",
  "yield",
  "await",
]);

class Scanner {
  readonly #text: string;
  readonly #code: string[];
  readonly #noComments: string[];
  #pos = 0;
  #last = "";
  /** One counter of open `{` per template interpolation we are inside. */
  readonly #templates: number[] = [];

  constructor(text: string) {
    this.#text = text;
    this.#code = text.split("");
    this.#noComments = text.split("");
  }

  #blank(index: number, alsoComments: boolean): void {
    if (this.#text[index] === "\n") return;
    this.#code[index] = " ";
    if (alsoComments) this.#noComments[index] = " ";
  }

  run(): ScannedSource {
    const text = this.#text;
    while (this.#pos < text.length) {
      const c = text[this.#pos]!;
      const next = text[this.#pos + 1];
      if (c === "/" && next === "/") this.#skipLineComment();
      else if (c === "/" && next === "*") this.#skipBlockComment();
      else if (c === '"' || c === "'") this.#skipString(c);
      else if (c === "`") this.#skipTemplate(this.#pos + 1);
      else if (c === "/" && this.#regexAllowed()) this.#skipRegex();
      else if (c === "}" && this.#templates.length > 0 && this.#templates.at(-1) === 0) {
        this.#templates.pop();
        this.#skipTemplate(this.#pos + 1);
      } else this.#punct(c);
    }
    return { code: this.#code.join(""), noComments: this.#noComments.join("") };
  }

  #punct(c: string): void {
    if (WORD.test(c)) {
      let end = this.#pos;
      while (end < this.#text.length && WORD.test(this.#text[end]!)) end++;
      this.#last = this.#text.slice(this.#pos, end);
      this.#pos = end;
      return;
    }
    if (this.#templates.length > 0 && (c === "{" || c === "}")) {
      this.#templates[this.#templates.length - 1]! += c === "{" ? 1 : -1;
    }
    if (!/\s/.test(c)) this.#last = c;
    this.#pos++;
  }

  #regexAllowed(): boolean {
    if (this.#last === "") return true;
    if (WORD.test(this.#last[0]!)) return REGEX_AFTER_WORD.has(this.#last);
    // `</` closes a JSX element; a regex never follows `<` directly.
    return !")]}\"'`<".includes(this.#last);
  }

  #skipLineComment(): void {
    while (this.#pos < this.#text.length && this.#text[this.#pos] !== "\n") this.#blank(this.#pos++, true);
  }

  #skipBlockComment(): void {
    const end = this.#text.indexOf("*/", this.#pos + 2);
    const stop = end === -1 ? this.#text.length : end + 2;
    while (this.#pos < stop) this.#blank(this.#pos++, true);
  }

  #skipString(quote: string): void {
    this.#pos++;
    while (this.#pos < this.#text.length) {
      const c = this.#text[this.#pos]!;
      if (c === quote || c === "\n") break;
      if (c === "\\") this.#blank(this.#pos++, false);
      this.#blank(this.#pos++, false);
    }
    this.#pos++;
    this.#last = quote;
  }

  /** Scans template text from `start` to the closing backtick or the next `${`. */
  #skipTemplate(start: number): void {
    this.#pos = start;
    while (this.#pos < this.#text.length) {
      const c = this.#text[this.#pos]!;
      if (c === "`") break;
      if (c === "$" && this.#text[this.#pos + 1] === "{") {
        this.#templates.push(0);
        this.#pos += 2;
        this.#last = "{";
        return;
      }
      if (c === "\\") this.#blank(this.#pos++, false);
      this.#blank(this.#pos++, false);
    }
    this.#pos++;
    this.#last = "`";
  }

  #skipRegex(): void {
    this.#pos++;
    let inClass = false;
    while (this.#pos < this.#text.length) {
      const c = this.#text[this.#pos]!;
      if (c === "\n") break;
      if (c === "/" && !inClass) break;
      if (c === "[") inClass = true;
      if (c === "]") inClass = false;
      if (c === "\\") this.#blank(this.#pos++, false);
      this.#blank(this.#pos++, false);
    }
    this.#pos++;
    while (this.#pos < this.#text.length && WORD.test(this.#text[this.#pos]!)) this.#pos++;
    this.#last = ")";
  }
}

export function scanSource(text: string): ScannedSource {
  return new Scanner(text).run();
}

/** 1-based line number of `offset`, given the offsets where lines start. */
export function lineOf(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low + 1;
}

export function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let index = 0; index < text.length; index++) if (text[index] === "\n") starts.push(index + 1);
  return starts;
}

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts", ".js", ".jsx", ".mjs"];

/** Source files under `dir` (relative to `root`, posix separators), sorted; a missing dir yields none. */
export async function listSources(root: string, dir: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(rel: string): Promise<void> {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(`${root}/${rel}`));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return;
      throw error;
    }
    for (const entry of entries) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory && entry.name !== "node_modules") await walk(child);
      else if (entry.isFile && SOURCE_EXTENSIONS.some((ext) => entry.name.endsWith(ext))) found.push(child);
    }
  }
  await walk(dir);
  return found.sort();
}
