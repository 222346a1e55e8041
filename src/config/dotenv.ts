/**
 * @module
 * Reads `<home>/.env`: `KEY=value` lines, `#` comments, an optional `export`, single or double quotes
 * (double quotes may span lines and understand `\n`, `\t`, `\"`, `\\`), and `# reasonix-cleared KEY`
 * tombstones that remove a key set earlier in the file. Any other line is a problem with its line number.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const TOMBSTONE = /^#\s*reasonix-cleared\s+([A-Za-z_][A-Za-z0-9_.]*)\s*$/;

export interface DotenvEntry {
  value: string;
  /** 1-based line of the assignment. */
  line: number;
}

/** A line that is not an assignment, a comment or blank: warned about, never guessed at. */
export interface DotenvProblem {
  line: number;
  message: string;
}

export interface DotenvFile {
  entries: Map<string, DotenvEntry>;
  problems: DotenvProblem[];
}

export function parseDotenv(text: string): Map<string, string> {
  const { entries } = readDotenv(text);
  return new Map([...entries].map(([key, entry]) => [key, entry.value]));
}

export function readDotenv(text: string): DotenvFile {
  const entries = new Map<string, DotenvEntry>();
  const problems: DotenvProblem[] = [];
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    const tombstone = TOMBSTONE.exec(line);
    if (tombstone) {
      entries.delete(tombstone[1]!);
      continue;
    }
    if (line === "" || line.startsWith("#")) continue;
    const problem = (message: string) => problems.push({ line: index + 1, message });
    const assignment = line.replace(/^export\s+/, "");
    const equals = assignment.indexOf("=");
    if (equals <= 0) {
      problem("skipped: expected NAME=value");
      continue;
    }
    const key = assignment.slice(0, equals).trim();
    if (!NAME.test(key)) {
      // The text is not quoted back: a misplaced key could be in it.
      problem(`skipped: the name before "=" is not a variable name (letters, digits, "_" and ".")`);
      continue;
    }
    const set = (value: string) => entries.set(key, { value, line: index + 1 });
    const rest = assignment.slice(equals + 1).trimStart();
    if (rest.startsWith('"')) {
      const { value, consumed, closed } = doubleQuoted(rest.slice(1), lines.slice(index + 1));
      if (!closed) {
        problem(`the double quote of ${key} is never closed: its value runs to the end of the file`);
      }
      set(value);
      index += consumed;
    } else if (rest.startsWith("'")) {
      const end = rest.indexOf("'", 1);
      if (end === -1) {
        problem(`the single quote of ${key} is never closed: its value runs to the end of the line`);
      }
      set(end === -1 ? rest.slice(1) : rest.slice(1, end));
    } else {
      set(rest.replace(/\s+#.*$/, "").trim());
    }
  }
  return { entries, problems };
}

/** Reads up to the closing quote, continuing onto later lines; returns how many extra lines it used. */
function doubleQuoted(first: string, later: string[]): { value: string; consumed: number; closed: boolean } {
  let text = first;
  let consumed = 0;
  for (;;) {
    const end = closingQuote(text);
    if (end !== -1) return { value: unescape(text.slice(0, end)), consumed, closed: true };
    if (consumed >= later.length) return { value: unescape(text), consumed, closed: false };
    text += "\n" + later[consumed]!;
    consumed++;
  }
}

function closingQuote(text: string): number {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

function unescape(text: string): string {
  const escapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
  return text.replace(/\\(.)/g, (match, char: string) => escapes[char] ?? match);
}
