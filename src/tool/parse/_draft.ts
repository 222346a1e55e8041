/**
 * @module
 * What the per-language collectors produce: a named declaration and the nodes that bound it. Ranges,
 * leading comments and byte offsets are worked out once, in symbols.ts.
 */
import type { SyntaxNode as Node } from "./tree_sitter.ts";

export const SYMBOL_KINDS = [
  "function",
  "method",
  "class",
  "interface",
  "type",
  "enum",
  "struct",
  "const",
  "var",
  "namespace",
] as const;

export type SymbolKind = typeof SYMBOL_KINDS[number];

export interface Draft {
  name: string;
  kind: SymbolKind;
  parent?: string;
  nameNode: Node;
  /** The first and last node of the declaration (they differ for merged overloads). */
  first: Node;
  last: Node;
  /** Other names the same statement declares (`const a = 1, b = 2`). */
  shared?: string[];
  /** A body-less signature that the next same-named declaration continues. */
  overload?: boolean;
}

export function namedChildren(node: Node): Node[] {
  return node.namedChildren.filter((child): child is Node => child !== null);
}

/** Adds a draft, folding it into the previous one when that was an overload signature of it. */
export function pushDraft(out: Draft[], draft: Draft): void {
  const previous = out.at(-1);
  if (
    previous?.overload === true && previous.name === draft.name && previous.kind === draft.kind &&
    previous.parent === draft.parent
  ) {
    previous.last = draft.last;
    previous.overload = draft.overload;
    return;
  }
  out.push(draft);
}

/** One draft per name, each told about the others declared alongside it. */
export function sharedDrafts(
  names: Node[],
  base: Omit<Draft, "name" | "nameNode" | "shared">,
): Draft[] {
  const texts = names.map((node) => node.text);
  return names.map((node, index) => {
    const others = texts.filter((_, j) => j !== index);
    return { ...base, name: texts[index]!, nameNode: node, ...(others.length > 0 ? { shared: others } : {}) };
  });
}
