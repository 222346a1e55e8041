/**
 * @module
 * Named declarations of a source file (top level, plus methods with their class or receiver type),
 * each with the full extent a delete should remove: leading doc comments and decorators, the
 * `export` keyword, and a comment trailing on its last line.
 */
import type { Draft, SymbolKind } from "./_draft.ts";
import { collectGo, collectPython } from "./_go_python_symbols.ts";
import { collectScript } from "./_script_symbols.ts";
import { type LanguageId, parseSource, type SyntaxNode as Node } from "./tree_sitter.ts";

export { SYMBOL_KINDS, type SymbolKind } from "./_draft.ts";

export interface CodeSymbol {
  name: string;
  kind: SymbolKind;
  /** The class, struct or receiver type a method belongs to. */
  parent?: string;
  /** 1-based line of the name. */
  line: number;
  /** 1-based, inclusive lines of the full extent. */
  startLine: number;
  endLine: number;
  /** String (UTF-16) offsets of the full extent, for slicing the text that was parsed. */
  start: number;
  end: number;
  /** UTF-8 byte offsets of the full extent. */
  startByte: number;
  endByte: number;
  /** Other names the same statement declares; deleting one alone would delete them too. */
  sharedWith?: string[];
  /** The parser recovered from a syntax error inside the extent. */
  hasError: boolean;
}

const COLLECTORS: Partial<Record<LanguageId, (root: Node) => Draft[]>> = {
  typescript: collectScript,
  tsx: collectScript,
  javascript: collectScript,
  go: collectGo,
  python: collectPython,
};

const TYPE_KINDS = new Set<SymbolKind>(["class", "interface", "type", "enum", "struct"]);

export function supportsSymbols(language: LanguageId): boolean {
  return COLLECTORS[language] !== undefined;
}

/** `kind: "type"` also matches classes, interfaces, enums and structs. */
export function kindMatches(wanted: SymbolKind, actual: SymbolKind): boolean {
  return wanted === actual || (wanted === "type" && TYPE_KINDS.has(actual));
}

/** Symbols in source order; a language without a collector yields a TypeError. */
export async function extractSymbols(text: string, language: LanguageId): Promise<CodeSymbol[]> {
  const collect = COLLECTORS[language];
  if (collect === undefined) throw new TypeError(`No symbol collector for "${language}"`);
  using parsed = await parseSource(text, language);
  const bytes = new Utf8Offsets(text);
  return collect(parsed.root).map((draft) => finish(draft, text, bytes));
}

function finish(draft: Draft, text: string, bytes: Utf8Offsets): CodeSymbol {
  const first = leadingStart(draft.first, text);
  const last = trailingEnd(draft.last);
  const endRow = last.endPosition.column === 0 && last.endPosition.row > first.startPosition.row
    ? last.endPosition.row - 1
    : last.endPosition.row;
  const symbol: CodeSymbol = {
    name: draft.name,
    kind: draft.kind,
    ...(draft.parent === undefined ? {} : { parent: draft.parent }),
    line: draft.nameNode.startPosition.row + 1,
    startLine: first.startPosition.row + 1,
    endLine: endRow + 1,
    start: first.startIndex,
    end: last.endIndex,
    startByte: bytes.at(first.startIndex),
    endByte: bytes.at(last.endIndex),
    hasError: rangeHasError(draft),
  };
  if (draft.shared !== undefined) symbol.sharedWith = draft.shared;
  return symbol;
}

/** Walks back over decorators and over comments that each start a line and touch what follows. */
function leadingStart(node: Node, text: string): Node {
  let first = node;
  for (let previous = previousOf(first); previous !== null; previous = previousOf(first)) {
    if (previous.type === "decorator") {
      first = previous;
      continue;
    }
    const touches = previous.endPosition.row >= first.startPosition.row - 1;
    if (!isComment(previous) || !touches || !startsLine(previous, text)) break;
    first = previous;
  }
  return first;
}

/** Python keeps a comment before a class's first member outside the member's block. */
function previousOf(node: Node): Node | null {
  const previous = node.previousNamedSibling;
  if (previous !== null || node.parent?.type !== "block") return previous;
  const outer = node.parent.previousNamedSibling;
  return outer !== null && isComment(outer) ? outer : null;
}

function trailingEnd(node: Node): Node {
  const next = node.nextNamedSibling;
  return next !== null && isComment(next) && next.startPosition.row === node.endPosition.row ? next : node;
}

function isComment(node: Node): boolean {
  return node.type === "comment";
}

function startsLine(node: Node, text: string): boolean {
  const lineStart = text.lastIndexOf("\n", node.startIndex - 1) + 1;
  return text.slice(lineStart, node.startIndex).trim() === "";
}

function rangeHasError(draft: Draft): boolean {
  if (draft.first.hasError || draft.last.hasError) return true;
  for (let node: Node | null = draft.first; node !== null && node.startIndex < draft.last.startIndex;) {
    if (node.hasError) return true;
    node = node.nextSibling;
  }
  return false;
}

/** String offsets to UTF-8 byte offsets, fast for ascending queries. */
class Utf8Offsets {
  readonly #text: string;
  #index = 0;
  #bytes = 0;

  constructor(text: string) {
    this.#text = text;
  }

  at(index: number): number {
    if (index < this.#index) {
      this.#index = 0;
      this.#bytes = 0;
    }
    for (; this.#index < index; this.#index++) {
      const code = this.#text.charCodeAt(this.#index);
      if (code < 0x80) this.#bytes += 1;
      else if (code < 0x800) this.#bytes += 2;
      else if (code >= 0xd800 && code <= 0xdbff) {
        this.#bytes += 4;
        this.#index++;
      } else this.#bytes += 3;
    }
    return this.#bytes;
  }
}
