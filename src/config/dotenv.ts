/**
 * @module
 * Reads `<home>/.env`: `KEY=value` lines, `#` comments, an optional `export`, single or double quotes
 * (double quotes may span lines and understand `\n`, `\t`, `\"`, `\\`), and `# reasonix-cleared KEY`
 * tombstones that remove a key set earlier in the file.
 */

const NAME = /^[A-Za-z_][A-Za-z0-9_.]*$/;
const TOMBSTONE = /^#\s*reasonix-cleared\s+([A-Za-z_][A-Za-z0-9_.]*)\s*$/;

export function parseDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    const tombstone = TOMBSTONE.exec(line);
    if (tombstone) {
      values.delete(tombstone[1]!);
      continue;
    }
    if (line === "" || line.startsWith("#")) continue;
    const assignment = line.replace(/^export\s+/, "");
    const equals = assignment.indexOf("=");
    if (equals <= 0) continue;
    const key = assignment.slice(0, equals).trim();
    if (!NAME.test(key)) continue;
    const rest = assignment.slice(equals + 1).trimStart();
    if (rest.startsWith('"')) {
      const { value, consumed } = doubleQuoted(rest.slice(1), lines.slice(index + 1));
      values.set(key, value);
      index += consumed;
    } else if (rest.startsWith("'")) {
      const end = rest.indexOf("'", 1);
      values.set(key, end === -1 ? rest.slice(1) : rest.slice(1, end));
    } else {
      values.set(key, rest.replace(/\s+#.*$/, "").trim());
    }
  }
  return values;
}

/** Reads up to the closing quote, continuing onto later lines; returns how many extra lines it used. */
function doubleQuoted(first: string, later: string[]): { value: string; consumed: number } {
  let text = first;
  let consumed = 0;
  for (;;) {
    const end = closingQuote(text);
    if (end !== -1) return { value: unescape(text.slice(0, end)), consumed };
    if (consumed >= later.length) return { value: unescape(text), consumed };
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
