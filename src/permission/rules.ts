/**
 * @module
 * The permission rule grammar: `Tool`, `Tool(specifier)`, `Tool=literal`. `Bash` names the bash tool,
 * `Edit` (and its alias `Write`) the group of file-changing tools, `WebFetch` web_fetch (its specifier is
 * `domain:<host glob>`); any other name is a literal tool id, matched exactly (MCP `mcp__server__tool`
 * included; tool names are never globbed). `mcp__server` names every tool of that MCP server (the tool's
 * `ruleGroup`).
 */

export type RuleKind = "deny" | "ask" | "allow";

/** How a rule's specifier matches a subject. */
export type RuleMatcher =
  | { type: "any" }
  /** `Bash=<literal>`: the whole command, byte for byte (metacharacters literal). */
  | { type: "literal"; text: string }
  /** `Bash(npm run test:*)`: the leading words of one simple command. */
  | { type: "prefix"; words: string[] }
  /** `Bash(npm run build)`: all the words of one simple command. */
  | { type: "exact"; words: string[] }
  /** `Edit(docs/**)`, `Bash(git * --stat)`: `*` matches anything, `?` one character. */
  | { type: "glob"; pattern: string };

export interface Rule {
  /** As written in config or on the command line. */
  source: string;
  /** Tool ids the rule covers. */
  tools: readonly string[];
  matcher: RuleMatcher;
}

/** A rule that cannot be read; `offset` is the 0-based index in the rule text where it went wrong. */
export class RuleSyntaxError extends SyntaxError {
  readonly offset: number;
  constructor(message: string, offset: number) {
    super(message);
    this.name = "RuleSyntaxError";
    this.offset = offset;
  }
}

/** The tools that change files; `Edit(...)` rules cover all of them. */
export const FILE_WRITERS: readonly string[] = [
  "write_file",
  "edit_file",
  "multi_edit",
  "move_file",
  "notebook_edit",
  "delete_range",
  "delete_symbol",
];

const ALIASES: Readonly<Record<string, readonly string[]>> = {
  Bash: ["bash"],
  Edit: FILE_WRITERS,
  Write: FILE_WRITERS,
  MultiEdit: FILE_WRITERS,
  WebFetch: ["web_fetch"],
};

const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export function parseRule(text: string): Rule {
  const lead = text.length - text.trimStart().length;
  const source = text.trim();
  if (source === "") throw new RuleSyntaxError("Cannot read permission rule: it is empty", 0);
  const cut = firstOf(source, ["(", "="]);
  const name = cut === -1 ? source : source.slice(0, cut);
  checkName(name, lead);
  const tools = ALIASES[name] ?? [name];
  if (cut === -1) return { source, tools, matcher: { type: "any" } };
  const isBash = tools.length === 1 && tools[0] === "bash";
  if (source[cut] === "=") {
    const literal = source.slice(cut + 1);
    if (literal.trim() === "") throw ruleError(`"${name}=" needs a command after "="`, lead + cut + 1);
    if (!isBash) throw ruleError(`"${name}=<literal>" is only for Bash`, lead + cut);
    return { source, tools, matcher: { type: "literal", text: literal.trim() } };
  }
  if (!source.endsWith(")")) throw ruleError(`"${name}(" is not closed with ")"`, lead + source.length);
  const specifier = source.slice(cut + 1, -1).trim();
  if (specifier === "") {
    throw ruleError(`"${name}()" needs a specifier inside the parentheses`, lead + cut + 1);
  }
  if (tools[0] === "web_fetch" && !/^domain:\S+$/.test(specifier)) {
    throw ruleError(`"${name}(...)" takes "domain:<host>", e.g. ${name}(domain:example.com)`, lead + cut + 1);
  }
  return { source, tools, matcher: isBash ? bashMatcher(specifier, lead + cut + 1) : globMatcher(specifier) };
}

/** Parses config rule lists (already validated at load, so a bad rule here is a programming error). */
export function compileRules(
  lists: { allow: readonly string[]; ask: readonly string[]; deny: readonly string[] },
) {
  return {
    allow: lists.allow.map(parseRule),
    ask: lists.ask.map(parseRule),
    deny: lists.deny.map(parseRule),
  };
}

/** The syntax problem of a rule, or null when it reads; for config and flag validation. */
export function ruleProblem(text: string): { message: string; offset: number } | null {
  try {
    parseRule(text);
    return null;
  } catch (error) {
    if (error instanceof RuleSyntaxError) return { message: error.message, offset: error.offset };
    throw error;
  }
}

function checkName(name: string, lead: number): void {
  if (TOOL_NAME.test(name)) return;
  const bad = [...name].findIndex((char, index) =>
    !/[A-Za-z0-9_-]/.test(char) || (index === 0 && /\d|-/.test(char))
  );
  const at = Math.max(0, bad);
  const detail = name.includes("*") || name.includes("?")
    ? `tool names are matched exactly, so "${name}" cannot hold a wildcard`
    : `"${name}" is not a tool name`;
  throw ruleError(detail, lead + at);
}

function bashMatcher(specifier: string, offset: number): RuleMatcher {
  const prefix = specifier.endsWith(":*")
    ? specifier.slice(0, -2)
    : specifier.endsWith(" *")
    ? specifier.slice(0, -2)
    : null;
  const words = splitWords(prefix ?? specifier, offset);
  if (words.length === 0) throw ruleError(`"Bash(${specifier})" names no command`, offset);
  if (prefix !== null && !words.some((word) => /[*?]/.test(word))) return { type: "prefix", words };
  if (/[*?]/.test(specifier)) return { type: "glob", pattern: specifier };
  return { type: "exact", words };
}

function globMatcher(specifier: string): RuleMatcher {
  return specifier === "*" || specifier === "**" ? { type: "any" } : { type: "glob", pattern: specifier };
}

/** Splits a rule's command into words the way a shell would, honouring quotes and backslashes. */
export function splitWords(text: string, offset = 0): string[] {
  const words: string[] = [];
  let current: string | null = null;
  let quote: string | null = null;
  let quoteAt = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quote !== null) {
      const escaped = char === "\\" && quote === '"' && i + 1 < text.length;
      if (char === quote) quote = null;
      else current = (current ?? "") + (escaped ? text[++i]! : char);
      continue;
    }
    if (/\s/.test(char)) {
      if (current !== null) words.push(current);
      current = null;
    } else if (char === "'" || char === '"') {
      quote = char;
      quoteAt = i;
      current ??= "";
    } else if (char === "\\" && i + 1 < text.length) current = (current ?? "") + text[++i]!;
    else if (/[;&|<>()`$\n]/.test(char)) {
      throw ruleError(
        `shell operator "${char}" is not allowed in a Bash rule; use Bash=<literal>`,
        offset + i,
      );
    } else current = (current ?? "") + char;
  }
  if (quote !== null) throw ruleError(`the quote opened here is not closed`, offset + quoteAt);
  if (current !== null) words.push(current);
  return words;
}

/** True when `glob` matches the whole of `subject`: `*` matches anything (also `/`), `?` one character. */
export function globMatches(glob: string, subject: string): boolean {
  let source = "^";
  for (const char of glob) {
    if (char === "*") source += source.endsWith(".*") ? "" : ".*";
    else if (char === "?") source += ".";
    else source += char.replace(/[\\^$.|+()[\]{}]/g, "\\$&");
  }
  return new RegExp(source + "$", "s").test(subject);
}

function firstOf(text: string, chars: string[]): number {
  const found = chars.map((char) => text.indexOf(char)).filter((index) => index !== -1);
  return found.length === 0 ? -1 : Math.min(...found);
}

function ruleError(detail: string, offset: number): RuleSyntaxError {
  return new RuleSyntaxError(`Cannot read permission rule: ${detail}`, offset);
}
