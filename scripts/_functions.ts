/**
 * @module
 * Finds functions in blanked source (see `_scan.ts`): declarations, methods, and function or arrow
 * expressions assigned to a name. Brace matching is enough because strings and comments are blanked.
 */

export interface FunctionSpan {
  /** Qualified by the enclosing class or function: `Store.append`, `listSources.walk`. */
  name: string;
  start: number;
  end: number;
}

const NOT_METHODS = new Set([
  "if",
  "for",
  "while",
  "switch",
  "catch",
  "with",
  "function",
  "return",
  "typeof",
  "await",
  "yield",
  "new",
  "delete",
  "void",
  "throw",
  "else",
  "do",
  "export",
  "import",
  "super",
  "this",
  "in",
  "of",
  "case",
]);

const DECLARATION = /\bfunction\b\s*\*?\s*([\w$]+)\s*(?:<[^>(]*>)?\s*\(/g;
const ASSIGNED =
  /(?:\b(?:const|let|var)\s+|^[ \t]*(?:(?:static|readonly|public|private|protected|override)\s+)*)(#?[\w$]+)\s*(?::[^=;]+?)?=(?![=>])\s*/gm;
const METHOD =
  /^[ \t]*(?:(?:public|private|protected|static|async|override|abstract|get|set)\s+)*\*?\s*(#?[\w$]+)\s*(?:<[^>(]*>)?\s*\(/gm;
const CLASS = /\bclass\b(?:\s+([\w$]+))?[^{;]*\{/g;

interface Container {
  name: string;
  bodyStart: number;
  end: number;
}

export function findFunctions(code: string): FunctionSpan[] {
  const found = new Map<number, { name: string; start: number; end: number }>();
  const add = (name: string, start: number, body: number) => {
    if (body < 0 || found.has(body)) return;
    found.set(body, { name, start, end: matchClose(code, body) });
  };
  for (const match of code.matchAll(ASSIGNED)) {
    const at = match.index + match[0].length;
    add(match[1]!, match.index + match[0].length - match[0].trimStart().length, assignedBody(code, at));
  }
  for (const match of code.matchAll(DECLARATION)) {
    add(match[1]!, match.index, bodyAfterParams(code, match.index + match[0].length - 1, false));
  }
  for (const match of code.matchAll(METHOD)) {
    if (NOT_METHODS.has(match[1]!)) continue;
    const start = match.index + match[0].length - match[0].trimStart().length;
    add(match[1]!, start, bodyAfterParams(code, match.index + match[0].length - 1, false));
  }
  const classes: Container[] = [...code.matchAll(CLASS)].map((match) => {
    const bodyStart = match.index + match[0].length - 1;
    return { name: match[1] ?? "class", bodyStart, end: matchClose(code, bodyStart) };
  });
  return qualify([...found.entries()].map(([body, span]) => ({ ...span, bodyStart: body })), classes);
}

function qualify(spans: (FunctionSpan & { bodyStart: number })[], classes: Container[]): FunctionSpan[] {
  const containers = [...classes, ...spans].sort((a, b) => a.bodyStart - b.bodyStart);
  const names = new Map<Container, string>();
  for (const container of containers) {
    const parent = containers.filter((other) =>
      other !== container && other.bodyStart < container.bodyStart && other.end >= container.end
    ).at(-1);
    const own = container.name;
    names.set(container, parent === undefined ? own : `${names.get(parent)}.${own}`);
  }
  const seen = new Map<string, number>();
  return spans.sort((a, b) => a.start - b.start).map((span) => {
    const base = names.get(span)!;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return { name: count === 1 ? base : `${base}@${count}`, start: span.start, end: span.end };
  });
}

/** After `name =`: an arrow or a function expression, else -1. */
function assignedBody(code: string, at: number): number {
  let index = at;
  if (code.startsWith("async", index) && !/[\w$]/.test(code[index + 5] ?? "")) {
    index = skipSpace(code, index + 5);
  }
  if (code.startsWith("function", index)) {
    const paren = code.indexOf("(", index);
    return paren < 0 ? -1 : bodyAfterParams(code, paren, false);
  }
  if (code[index] === "<") index = skipSpace(code, matchClose(code, index) + 1);
  if (code[index] === "(") return bodyAfterParams(code, index, true);
  const param = /^[\w$]+\s*=>/.exec(code.slice(index, index + 200));
  if (param === null) return -1;
  return arrowBody(code, index + param[0].length - 2);
}

/** `open` is the `(` of the parameter list; returns the index of the body's `{` or `(`, or -1. */
function bodyAfterParams(code: string, open: number, arrow: boolean): number {
  let index = skipSpace(code, matchClose(code, open) + 1);
  if (code[index] === ":") index = skipType(code, index + 1, arrow);
  if (index < 0) return -1;
  if (!arrow) return code[index] === "{" ? index : -1;
  return code.startsWith("=>", index) ? arrowBody(code, index) : -1;
}

function arrowBody(code: string, arrow: number): number {
  const index = skipSpace(code, arrow + 2);
  return code[index] === "{" || code[index] === "(" ? index : -1;
}

/** Skips a return type annotation; returns the index of the body `{` (or `=>` for arrows), or -1. */
function skipType(code: string, from: number, arrow: boolean): number {
  let depth = 0;
  let last = ":";
  for (let index = from; index < code.length; index++) {
    const c = code[index]!;
    if (/\s/.test(c)) continue;
    if (depth === 0 && c === "=" && code[index + 1] === ">") {
      if (arrow) return index;
      last = "=";
      index++;
      continue;
    }
    if (c === "(" || c === "[" || c === "<") depth++;
    else if (c === ")" || c === "]" || c === ">") depth--;
    else if (c === "{") {
      if (depth === 0 && !":|&<,(?=".includes(last)) return index;
      index = matchClose(code, index);
      last = "}";
      continue;
    } else if (depth === 0 && (c === ";" || c === "}")) return -1;
    last = c;
  }
  return -1;
}

function skipSpace(code: string, index: number): number {
  while (index < code.length && /\s/.test(code[index]!)) index++;
  return index;
}

const PAIRS: Record<string, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

/** Index of the bracket closing the one at `open`, or the last index if it never closes. */
export function matchClose(code: string, open: number): number {
  const opener = code[open]!;
  const closer = PAIRS[opener]!;
  let depth = 0;
  for (let index = open; index < code.length; index++) {
    const c = code[index];
    if (c === opener) depth++;
    else if (c === closer && !(closer === ">" && code[index - 1] === "=") && --depth === 0) return index;
  }
  return code.length - 1;
}
