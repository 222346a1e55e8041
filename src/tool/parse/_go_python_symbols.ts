/**
 * @module
 * Top-level declarations of Go files (methods carry their receiver type as parent; each spec of a
 * grouped `const (...)`, `var (...)` or `type (...)` block is its own symbol) and of Python files
 * (functions, classes with their methods, module-level assignments).
 */
import type { SyntaxNode as Node } from "./tree_sitter.ts";
import { type Draft, namedChildren, sharedDrafts, type SymbolKind } from "./_draft.ts";

const GO_SPECS: Readonly<Record<string, { spec: string[]; kind: SymbolKind | null }>> = {
  type_declaration: { spec: ["type_spec", "type_alias"], kind: null },
  const_declaration: { spec: ["const_spec"], kind: "const" },
  var_declaration: { spec: ["var_spec"], kind: "var" },
};

export function collectGo(root: Node): Draft[] {
  const out: Draft[] = [];
  for (const decl of namedChildren(root)) {
    const nameNode = decl.childForFieldName("name");
    if (decl.type === "function_declaration" && nameNode !== null) {
      out.push({ name: nameNode.text, kind: "function", nameNode, first: decl, last: decl });
    } else if (decl.type === "method_declaration" && nameNode !== null) {
      const parent = receiverType(decl);
      out.push({ name: nameNode.text, kind: "method", nameNode, first: decl, last: decl, ...parent });
    } else if (GO_SPECS[decl.type] !== undefined) {
      out.push(...goSpecs(decl, GO_SPECS[decl.type]!));
    }
  }
  return out;
}

function goSpecs(decl: Node, shape: { spec: string[]; kind: SymbolKind | null }): Draft[] {
  const specs = namedChildren(decl).filter((child) => shape.spec.includes(child.type));
  const grouped = decl.children.some((child) => child?.type === "(");
  return specs.flatMap((spec) => {
    const bounds = grouped ? spec : decl;
    const names = spec.childrenForFieldName("name").filter((name): name is Node => name?.isNamed === true);
    const kind = shape.kind ?? goTypeKind(spec);
    return sharedDrafts(names, { kind, first: bounds, last: bounds });
  });
}

function goTypeKind(spec: Node): SymbolKind {
  const type = spec.childForFieldName("type")?.type;
  if (spec.type === "type_spec" && type === "struct_type") return "struct";
  if (spec.type === "type_spec" && type === "interface_type") return "interface";
  return "type";
}

/** `func (s *Box[T]) M()` → `{ parent: "Box" }`. */
function receiverType(method: Node): { parent?: string } {
  const receiver = method.childForFieldName("receiver");
  const param = receiver === null ? undefined : namedChildren(receiver)[0];
  const type = param?.childForFieldName("type");
  if (type === null || type === undefined) return {};
  const name = type.type === "type_identifier" ? type : type.descendantsOfType("type_identifier")[0];
  return name ? { parent: name.text } : {};
}

export function collectPython(root: Node): Draft[] {
  const out: Draft[] = [];
  for (const statement of namedChildren(root)) {
    const decl = definitionOf(statement);
    const nameNode = decl?.childForFieldName("name") ?? null;
    if (decl?.type === "function_definition" && nameNode !== null) {
      out.push({ name: nameNode.text, kind: "function", nameNode, first: statement, last: statement });
    } else if (decl?.type === "class_definition" && nameNode !== null) {
      out.push({ name: nameNode.text, kind: "class", nameNode, first: statement, last: statement });
      out.push(...pythonMethods(decl, nameNode.text));
    } else if (statement.type === "expression_statement") {
      out.push(...pythonAssignment(statement));
    }
  }
  return out;
}

function definitionOf(statement: Node): Node | null {
  if (statement.type === "decorated_definition") return statement.childForFieldName("definition");
  return statement;
}

function pythonMethods(decl: Node, parent: string): Draft[] {
  const body = decl.childForFieldName("body");
  if (body === null) return [];
  const out: Draft[] = [];
  for (const member of namedChildren(body)) {
    const def = definitionOf(member);
    const nameNode = def?.type === "function_definition" ? def.childForFieldName("name") : null;
    if (nameNode) {
      out.push({ name: nameNode.text, kind: "method", parent, nameNode, first: member, last: member });
    }
  }
  return out;
}

function pythonAssignment(statement: Node): Draft[] {
  const assignment = statement.firstNamedChild;
  if (assignment?.type !== "assignment") return [];
  const left = assignment.childForFieldName("left");
  if (left === null) return [];
  const names = left.type === "identifier"
    ? [left]
    : namedChildren(left).filter((child) => child.type === "identifier");
  return sharedDrafts(names, { kind: "var", first: statement, last: statement });
}
