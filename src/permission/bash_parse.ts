/**
 * @module
 * Parses a bash command line with tree-sitter-bash into a ShellScript. Loading the grammar is async
 * (WebAssembly) and happens at the first parse, so a session that runs no bash never pays for it; the
 * parse itself never throws: anything the parser rejects, or a grammar that fails to load, comes back
 * with `error` set, which the classifier treats as the riskiest tier.
 */
import { loadLanguage, parseSource, type SyntaxNode } from "../tool/parse/tree_sitter.ts";
import { shellStrings } from "./_inner.ts";
import type {
  ShellCommand,
  ShellFeatureKind,
  ShellRedirect,
  ShellScript,
  ShellWord,
} from "./shell_script.ts";

/** Loads the grammar; later parses only pay for the parse. */
export async function initBashParser(): Promise<void> {
  await loadLanguage("bash");
}

/** How deep `sh -c "bash -c '…'"` strings are parsed; deeper ones stay opaque. */
const MAX_INNER_DEPTH = 3;
const MAX_INNER_STRINGS = 16;

export async function parseBash(source: string, depth = 0): Promise<ShellScript> {
  const script: ShellScript = {
    source,
    commands: [],
    redirects: [],
    features: [],
    error: null,
    quoted: [],
    topLevelNewline: false,
    assigned: [],
    inner: new Map(),
  };
  try {
    using parsed = await parseSource(source, "bash");
    new Collector(script).walk(parsed.root, false);
    script.topLevelNewline = hasTopLevelNewline(source, parsed.root);
  } catch (error) {
    script.error = `the shell parser failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  script.quoted.sort((a, b) => a[0] - b[0]);
  if (depth < MAX_INNER_DEPTH) {
    const strings = new Set(
      script.commands.flatMap((command) => shellStrings(command.argv.map((word) => word.value))),
    );
    for (const text of [...strings].slice(0, MAX_INNER_STRINGS)) {
      script.inner.set(text, await parseBash(text, depth + 1));
    }
  }
  return script;
}

/** Statements at the top level separated by a line break (heredoc bodies lie inside their statement). */
function hasTopLevelNewline(source: string, root: SyntaxNode): boolean {
  const statements = root.namedChildren.filter((child) => child !== null && child.type !== "comment");
  return statements.some((child, i) => {
    const next = statements[i + 1];
    return next !== undefined && /[\r\n]/.test(source.slice(child!.endIndex, next!.startIndex));
  });
}

const QUOTED = new Set([
  "string",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "heredoc_body",
  "comment",
]);

const STRUCTURE = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "negated_command",
  "if_statement",
  "elif_clause",
  "else_clause",
  "while_statement",
  "case_statement",
  "case_item",
  "do_group",
  "test_command",
  "binary_expression",
  "unary_expression",
  "ternary_expression",
  "postfix_expression",
  "parenthesized_expression",
  "subscript",
  "array",
  "string",
  "concatenation",
  "heredoc_body",
]);

const LEAVES = new Set([
  "comment",
  "word",
  "raw_string",
  "ansi_c_string",
  "translated_string",
  "string_content",
  "number",
  "variable_name",
  "special_variable_name",
  "file_descriptor",
  "heredoc_start",
  "heredoc_end",
  "heredoc_content",
  "test_operator",
  "extglob_pattern",
  "regex",
  "command_name",
]);

class Collector {
  #script: ShellScript;
  /** How many enclosing constructs hide the exit status of what is walked now. */
  #hiding = 0;

  constructor(script: ShellScript) {
    this.#script = script;
  }

  walk(node: SyntaxNode, substituted: boolean): void {
    if (node.type === "ERROR" || node.isMissing) {
      this.#script.error ??= `the shell parser cannot read "${clip(node.text)}"`;
      return;
    }
    if (!node.isNamed) return;
    if (QUOTED.has(node.type)) this.#script.quoted.push([node.startIndex, node.endIndex]);
    const handled = this.#special(node, substituted);
    if (handled) return;
    if (!STRUCTURE.has(node.type) && !LEAVES.has(node.type)) this.#feature("unknown_construct", node);
    this.#children(node, substituted);
  }

  #children(node: SyntaxNode, substituted: boolean): void {
    const hidden = statusHiddenChildren(node);
    for (const child of node.children) {
      if (!child) continue;
      const hides = hidden.has(child.id);
      if (hides) this.#hiding++;
      this.walk(child, substituted);
      if (hides) this.#hiding--;
    }
  }

  #special(node: SyntaxNode, substituted: boolean): boolean {
    switch (node.type) {
      case "command":
        this.#command(node, substituted);
        return true;
      case "declaration_command":
      case "unset_command":
        this.#keywordCommand(node, substituted);
        return true;
      case "redirected_statement":
        this.#redirected(node, substituted);
        return true;
      case "herestring_redirect":
        this.#feature("heredoc", node);
        this.#redirect(node, substituted);
        return true;
      case "file_redirect":
      case "heredoc_redirect":
        this.#redirect(node, substituted);
        return true;
      case "command_substitution":
      case "process_substitution":
        this.#feature(node.type, node);
        this.#children(node, true);
        return true;
      case "simple_expansion":
      case "expansion":
        this.#feature("parameter_expansion", node);
        this.#children(node, substituted);
        return true;
      case "arithmetic_expansion":
      case "c_style_for_statement":
        this.#feature("arithmetic", node);
        this.#children(node, substituted);
        return true;
      case "variable_assignment":
      case "for_statement":
        this.#assigned(node);
        this.#feature("assignment", node);
        this.#children(node, substituted);
        return true;
      case "brace_expression":
        this.#feature("brace_expansion", node);
        return true;
      case "function_definition":
        this.#feature("function_definition", node);
        this.#children(node, substituted);
        return true;
    }
    return false;
  }

  #command(node: SyntaxNode, substituted: boolean): ShellCommand {
    const command: ShellCommand = {
      text: node.text,
      argv: [],
      assignments: [],
      substituted,
      statusHidden: this.#hiding > 0,
    };
    this.#script.commands.push(command);
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === "variable_assignment") command.assignments.push(child.text);
      else if (child.type === "command_name") command.argv.push(word(child.namedChildren[0] ?? child));
      else if (!child.type.endsWith("_redirect") && child.type !== "comment") command.argv.push(word(child));
      this.walk(child, substituted);
    }
    return command;
  }

  #keywordCommand(node: SyntaxNode, substituted: boolean): void {
    const keyword = node.children.find((child) => child && !child.isNamed)?.text ?? node.type;
    const command: ShellCommand = {
      text: node.text,
      argv: [{ raw: keyword, value: keyword, glob: false }],
      assignments: [],
      substituted,
      statusHidden: this.#hiding > 0,
    };
    this.#script.commands.push(command);
    for (const child of node.namedChildren) {
      if (!child) continue;
      command.argv.push(word(child));
      if (child.type === "variable_name" && node.type === "declaration_command") {
        this.#script.assigned.push(child.text);
      }
      this.walk(child, substituted);
    }
  }

  #assigned(node: SyntaxNode): void {
    const target = node.type === "for_statement" ? node.childForFieldName("variable") : node.namedChildren[0];
    const name = target?.type === "subscript" ? target.namedChildren[0] : target;
    if (name) this.#script.assigned.push(name.text);
  }

  #redirected(node: SyntaxNode, substituted: boolean): void {
    const body = node.childForFieldName("body");
    const before = this.#script.commands.length;
    if (body) this.walk(body, substituted);
    const target = body?.type === "command" ? this.#script.commands[before] : undefined;
    for (const child of node.childrenForFieldName("redirect")) {
      if (!child) continue;
      const extra = this.#redirect(child, substituted);
      // tree-sitter puts the words after a redirect (`echo > out more`) into the redirect.
      if (target) target.argv.push(...extra);
      else if (extra.length > 0) this.#feature("unknown_construct", child);
    }
    for (const child of node.namedChildren) {
      if (child && child.id !== body?.id && !child.type.endsWith("_redirect")) this.walk(child, substituted);
    }
  }

  #redirect(node: SyntaxNode, substituted: boolean): ShellWord[] {
    const op = node.children.filter((child) => child && !child.isNamed).map((child) => child!.text).join("");
    const destinations = node.childrenForFieldName("destination").filter((child) => child !== null);
    let target: ShellWord | null = destinations[0] ? word(destinations[0]) : null;
    if (node.type === "heredoc_redirect") {
      this.#feature("heredoc", node);
      target = null;
    } else if (node.type === "herestring_redirect") {
      const body = node.namedChildren.find((child) => child !== null);
      target = body ? word(body) : null;
    }
    const redirect: ShellRedirect = { text: node.text, op: op || "<<", target };
    this.#script.redirects.push(redirect);
    for (const child of node.namedChildren) if (child) this.walk(child, substituted);
    return destinations.slice(1).map(word);
  }

  #feature(kind: ShellFeatureKind | string, node: SyntaxNode): void {
    const known = kind === "unknown_construct" ? `${node.type}: ${clip(node.text)}` : clip(node.text);
    this.#script.features.push({ kind: kind as ShellFeatureKind, text: known });
  }
}

/** Nodes whose status is their last child's. */
const SEQUENCES = new Set(["program", "pipeline", "compound_statement", "subshell"]);
/** Nodes whose commands may not run at all, or run as a branch the line's status does not follow. */
const BRANCHES = new Set([
  "negated_command",
  "if_statement",
  "while_statement",
  "for_statement",
  "c_style_for_statement",
  "case_statement",
  "function_definition",
]);

/**
 * The children whose exit status may not decide the line's: a branch that may not run or whose failure is
 * turned into success (`a || b`, `! a`, `if`, loops, `case`, a function body), a command sent to the
 * background (`a &`), and all but the last of a pipeline (no pipefail assumed) or of a `;` or newline
 * sequence (no `set -e` assumed).
 */
function statusHiddenChildren(node: SyntaxNode): Set<number> {
  const ids = new Set<number>();
  const hideAll = BRANCHES.has(node.type) ||
    (node.type === "list" && node.children.some((child) => child?.type === "||"));
  if (hideAll) {
    for (const child of node.children) if (child) ids.add(child.id);
  } else if (SEQUENCES.has(node.type)) {
    const statements = node.namedChildren.filter((child) => child !== null && child.type !== "comment");
    for (const child of statements.slice(0, -1)) if (child) ids.add(child.id);
    for (const child of statements) if (child?.nextSibling?.type === "&") ids.add(child.id);
  }
  return ids;
}

/** The literal value of a word, or null when part of it expands when the shell runs it. */
function word(node: SyntaxNode): ShellWord {
  const resolved = literal(node);
  return { raw: node.text, value: resolved?.value ?? null, glob: resolved?.glob ?? false };
}

function literal(node: SyntaxNode): { value: string; glob: boolean } | null {
  switch (node.type) {
    case "word":
    case "command_name":
      return unquotedWord(node.text);
    case "number":
    case "variable_name":
      return { value: node.text, glob: false };
    case "raw_string":
      return { value: node.text.slice(1, -1), glob: false };
    case "string":
      return doubleQuoted(node);
    case "ansi_c_string":
      return ansiC(node.text.slice(2, -1));
    case "concatenation":
      return concatenation(node);
  }
  return null;
}

function unquotedWord(text: string): { value: string; glob: boolean } {
  let value = "";
  let glob = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === "\\" && i + 1 < text.length) {
      if (text[i + 1] !== "\n") value += text[i + 1];
      i++;
      continue;
    }
    if (char === "*" || char === "?" || char === "[") glob = true;
    value += char;
  }
  return { value, glob };
}

function doubleQuoted(node: SyntaxNode): { value: string; glob: boolean } | null {
  let value = "";
  for (const child of node.namedChildren) {
    if (!child || child.type !== "string_content") return null;
    value += child.text.replace(/\\([$`"\\\n])/g, (_, char: string) => char === "\n" ? "" : char);
  }
  return { value, glob: false };
}

const C_ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
};

function ansiC(body: string): { value: string; glob: boolean } | null {
  let value = "";
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      value += char;
      continue;
    }
    const next = body[i + 1] ?? "";
    const hex = /^x([0-9a-fA-F]{1,2})/.exec(body.slice(i + 1));
    if (hex) {
      value += String.fromCharCode(parseInt(hex[1]!, 16));
      i += hex[0].length;
    } else if (C_ESCAPES[next] !== undefined) {
      value += C_ESCAPES[next];
      i++;
    } else return null;
  }
  return { value, glob: false };
}

function concatenation(node: SyntaxNode): { value: string; glob: boolean } | null {
  let value = "";
  let glob = false;
  for (const child of node.namedChildren) {
    if (!child) continue;
    const part = literal(child);
    if (part === null) return null;
    value += part.value;
    glob ||= part.glob;
  }
  return { value, glob: glob || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(node.text) };
}

function clip(text: string): string {
  const line = text.split("\n")[0]!;
  return line.length > 80 ? `${line.slice(0, 77)}...` : line === text ? line : `${line} ...`;
}
