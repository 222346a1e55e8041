/**
 * @module
 * Parses JSON and remembers where every key sits, so `.mcp.json` problems read `<file>:<line>:<col>`
 * like the TOML ones. A syntax error carries its own position. Duplicate keys keep the last value, as
 * `JSON.parse` does.
 */

export interface JsonPosition {
  line: number;
  column: number;
}

export class JsonSyntaxError extends Error {
  constructor(message: string, readonly at: JsonPosition) {
    super(message);
    this.name = "JsonSyntaxError";
  }
}

export interface LocatedJson {
  value: unknown;
  /** Position of the key (or array item) at a path, or of its nearest recorded ancestor, or 1:1. */
  position(path: readonly (string | number)[]): JsonPosition;
}

export function parseLocatedJson(text: string): LocatedJson {
  const parser = new Parser(text.replace(/^\uFEFF/, ""));
  const value = parser.document();
  const positions = parser.positions;
  return {
    value,
    position(path) {
      for (let depth = path.length; depth > 0; depth--) {
        const found = positions.get(JSON.stringify(path.slice(0, depth)));
        if (found) return found;
      }
      return { line: 1, column: 1 };
    },
  };
}

class Parser {
  readonly positions = new Map<string, JsonPosition>();
  #pos = 0;

  constructor(readonly text: string) {}

  document(): unknown {
    const value = this.#value([]);
    this.#space();
    if (this.#pos < this.text.length) this.#fail("unexpected text after the JSON value");
    return value;
  }

  #value(path: (string | number)[]): unknown {
    this.#space();
    const char = this.text[this.#pos];
    if (char === "{") return this.#object(path);
    if (char === "[") return this.#array(path);
    if (char === '"') return this.#string();
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      this.text.slice(this.#pos),
    );
    if (!literal) this.#fail(char === undefined ? "unexpected end of the file" : `unexpected "${char}"`);
    this.#pos += literal[0].length;
    return JSON.parse(literal[0]);
  }

  #object(path: (string | number)[]): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.#pos++;
    if (this.#peek() === "}") {
      this.#pos++;
      return out;
    }
    for (;;) {
      this.#space();
      if (this.text[this.#pos] !== '"') this.#fail("expected a quoted key");
      const at = this.#here();
      const key = this.#string();
      this.positions.set(JSON.stringify([...path, key]), at);
      if (this.#peek() !== ":") this.#fail('expected ":" after the key');
      this.#pos++;
      out[key] = this.#value([...path, key]);
      if (this.#separator("}")) return out;
    }
  }

  #array(path: (string | number)[]): unknown[] {
    const out: unknown[] = [];
    this.#pos++;
    if (this.#peek() === "]") {
      this.#pos++;
      return out;
    }
    for (;;) {
      this.#space();
      this.positions.set(JSON.stringify([...path, out.length]), this.#here());
      out.push(this.#value([...path, out.length]));
      if (this.#separator("]")) return out;
    }
  }

  /** Consumes `,` (false) or the closing bracket (true). */
  #separator(close: string): boolean {
    const char = this.#peek();
    this.#pos++;
    if (char === close) return true;
    if (char !== ",") this.#fail(`expected "," or "${close}"`, this.#pos - 1);
    return false;
  }

  #string(): string {
    const start = this.#pos;
    this.#pos++;
    while (this.#pos < this.text.length && this.text[this.#pos] !== '"') {
      if (this.text[this.#pos] === "\\") this.#pos++;
      this.#pos++;
    }
    if (this.#pos >= this.text.length) this.#fail("unterminated string", start);
    this.#pos++;
    try {
      return JSON.parse(this.text.slice(start, this.#pos));
    } catch {
      return this.#fail("invalid string", start);
    }
  }

  #peek(): string | undefined {
    this.#space();
    return this.text[this.#pos];
  }

  #space(): void {
    while (/[ \t\r\n]/.test(this.text[this.#pos] ?? "")) this.#pos++;
  }

  #here(offset = this.#pos): JsonPosition {
    const before = this.text.slice(0, offset);
    const line = before.split("\n").length;
    return { line, column: offset - (before.lastIndexOf("\n") + 1) + 1 };
  }

  #fail(message: string, offset = this.#pos): never {
    throw new JsonSyntaxError(message, this.#here(offset));
  }
}
