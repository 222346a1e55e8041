/**
 * @module
 * The plain-data view of a parsed bash command line that the classifier judges: every simple command
 * (also those nested in substitutions), every redirect, and every construct that makes the line
 * dynamic. Built by `bash_parse.ts`; pure data, so the decision code stays synchronous and testable.
 */

/** One shell word; `value` is its literal text after quote removal, or null when it expands at run time. */
export interface ShellWord {
  raw: string;
  value: string | null;
  /** Unquoted `*`, `?`, `[` or a brace expansion: the shell turns it into other words. */
  glob: boolean;
}

export interface ShellCommand {
  text: string;
  /** The command name first; an empty list for a bare assignment. */
  argv: ShellWord[];
  /** `NAME=value` words before the command name. */
  assignments: string[];
  /** Nested inside `$(...)`, `<(...)` or backticks. */
  substituted: boolean;
  /** Its exit status cannot fail the line: left of `||`, after `!`, an `if`/`while` condition. */
  statusHidden: boolean;
}

export interface ShellRedirect {
  text: string;
  /** `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<` ... */
  op: string;
  target: ShellWord | null;
}

export type ShellFeatureKind =
  | "command_substitution"
  | "process_substitution"
  | "parameter_expansion"
  | "arithmetic"
  | "assignment"
  | "heredoc"
  | "brace_expansion"
  | "function_definition"
  | "unknown_construct";

export interface ShellFeature {
  kind: ShellFeatureKind;
  text: string;
}

export interface ShellScript {
  source: string;
  commands: ShellCommand[];
  redirects: ShellRedirect[];
  features: ShellFeature[];
  /** Why the line could not be parsed; null when it parsed cleanly. */
  error: string | null;
  /** [start, end) of quoted text, comments and here-document bodies, in source order. */
  quoted: [number, number][];
  /** A newline at the top level ends one command and starts another. */
  topLevelNewline: boolean;
  /** Every variable the line assigns or declares (`X=1`, `export X`, `for X in`). */
  assigned: string[];
  /** Literal shell strings the line may run (`sh -c '…'`, `eval '…'`), parsed, by their text. */
  inner: Map<string, ShellScript>;
}
