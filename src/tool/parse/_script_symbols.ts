/**
 * @module
 * Top-level declarations of TypeScript, TSX and JavaScript files, plus the methods of their classes.
 */
import type { SyntaxNode as Node } from "./tree_sitter.ts";
import { type Draft, namedChildren, pushDraft, sharedDrafts, type SymbolKind } from "./_draft.ts";

const SIMPLE_KINDS: Readonly<Record<string, SymbolKind>> = {
  function_declaration: "function",
  generator_function_declaration: "function",
  function_signature: "function",
  function_expression: "function",
  function: "function",
  generator_function: "function",
  interface_declaration: "interface",
  type_alias_declaration: "type",
  enum_declaration: "enum",
  internal_module: "namespace",
  module: "namespace",
};

const CLASS_TYPES = new Set(["class_declaration", "abstract_class_declaration", "class"]);
const METHOD_TYPES = new Set(["method_definition", "method_signature", "abstract_method_signature"]);

export function collectScript(root: Node): Draft[] {
  const out: Draft[] = [];
  for (const statement of namedChildren(root)) {
    const inner = unwrap(statement);
    if (inner !== null) { for (const draft of describe(inner, statement)) pushDraft(out, draft); }
  }
  return out;
}

/** The declaration inside `export`, `declare` and expression wrappers; null for anything else. */
function unwrap(statement: Node): Node | null {
  switch (statement.type) {
    case "export_statement":
      return statement.childForFieldName("declaration") ?? statement.childForFieldName("value");
    case "ambient_declaration":
    case "expression_statement":
      return statement.firstNamedChild;
    default:
      return statement;
  }
}

function describe(decl: Node, outer: Node): Draft[] {
  const base = { first: outer, last: outer };
  const kind = SIMPLE_KINDS[decl.type];
  if (kind !== undefined) {
    const nameNode = decl.childForFieldName("name") ?? decl;
    const name = decl.childForFieldName("name")?.text ?? (isDefaultExport(outer) ? "default" : null);
    if (name === null) return [];
    return [{
      ...base,
      name,
      kind,
      nameNode,
      ...(decl.type === "function_signature" ? { overload: true } : {}),
    }];
  }
  if (CLASS_TYPES.has(decl.type)) return describeClass(decl, outer);
  if (decl.type === "statement_block" && outer.type === "ambient_declaration") {
    return [{ ...base, name: "global", kind: "namespace", nameNode: decl }];
  }
  if (decl.type === "lexical_declaration" || decl.type === "variable_declaration") {
    const isConst = decl.type === "lexical_declaration" && decl.firstChild?.type === "const";
    const names = namedChildren(decl)
      .filter((child) => child.type === "variable_declarator")
      .map((child) => child.childForFieldName("name"))
      .filter((name): name is Node => name?.type === "identifier");
    return sharedDrafts(names, { ...base, kind: isConst ? "const" : "var" });
  }
  return [];
}

function describeClass(decl: Node, outer: Node): Draft[] {
  const nameNode = decl.childForFieldName("name");
  const name = nameNode?.text ?? (isDefaultExport(outer) ? "default" : null);
  if (name === null) return [];
  const out: Draft[] = [{ name, kind: "class", nameNode: nameNode ?? decl, first: outer, last: outer }];
  const body = decl.childForFieldName("body");
  if (body === null) return out;
  const methods: Draft[] = [];
  for (const member of namedChildren(body)) {
    if (!METHOD_TYPES.has(member.type)) continue;
    const methodName = member.childForFieldName("name");
    if (methodName === null) continue;
    pushDraft(methods, {
      name: methodName.text,
      kind: "method",
      parent: name,
      nameNode: methodName,
      first: member,
      last: member,
      ...(isBodiless(member) ? { overload: true } : {}),
    });
  }
  return [...out, ...methods];
}

function isBodiless(member: Node): boolean {
  return member.type === "method_signature";
}

function isDefaultExport(outer: Node): boolean {
  return outer.type === "export_statement" && outer.children.some((child) => child?.type === "default");
}
