/**
 * @module
 * Judges a parsed bash line (pure). Tiers, lowest first: `read` (known read-only commands with safe
 * flags), `write` (anything else that is fixed text), `tier1` (the line expands at run time: variables,
 * arithmetic, assignments, here-documents, globs, unproven redirects), `tier2` (it runs text as code or
 * computes what to run: substitutions, eval/source, `sh -c`, `python -c`, a parse failure).
 */
import { posix } from "node:path";
import { judgeProgram, PATH_WRITERS } from "./_commands.ts";
import type { ShellCommand, ShellFeatureKind, ShellRedirect, ShellScript } from "./shell_script.ts";

export type Tier = "read" | "write" | "tier1" | "tier2";

export interface WorkspaceRoots {
  root: string;
  extraWritable: readonly string[];
}

export interface CommandJudgement {
  text: string;
  argv: (string | null)[];
  tier: Tier;
  reason: string;
  /** Inside `$(...)` or `<(...)`: never covered by an allow rule. */
  substituted: boolean;
  /** The argv itself plus every command it wraps (`env X=1 rm`, `xargs rm`, `find -exec rm`). */
  effective: (string | null)[][];
}

export interface BashJudgement {
  tier: Tier;
  reason: string;
  /** Why this line reaches outside the workspace (or runs as another user); null when it does not. */
  outside: string | null;
  commands: CommandJudgement[];
  /** Redirects that write to a file (no prefix rule covers them). */
  writeRedirects: string[];
}

const RANK: Readonly<Record<Tier, number>> = { read: 0, write: 1, tier1: 2, tier2: 3 };

const FEATURE_TIER: Readonly<Record<ShellFeatureKind, { tier: Tier; why: string }>> = {
  command_substitution: { tier: "tier2", why: "runs a command and splices its output into the line" },
  process_substitution: { tier: "tier2", why: "runs a command and passes it as a file" },
  function_definition: { tier: "tier2", why: "defines a function that can stand in for any command" },
  unknown_construct: { tier: "tier2", why: "is a shell construct the policy does not judge" },
  parameter_expansion: { tier: "tier1", why: "expands a variable when the shell runs" },
  arithmetic: { tier: "tier1", why: "evaluates arithmetic when the shell runs" },
  assignment: { tier: "tier1", why: "assigns a shell variable" },
  heredoc: { tier: "tier1", why: "feeds a here-document to the command" },
  brace_expansion: { tier: "tier1", why: "expands into several words" },
};

const SAFE_SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"]);
const TEMP_ROOT = "/tmp";
const MAX_WRAP_DEPTH = 8;

class Judge {
  tier: Tier = "read";
  reason = "";
  outside: string | null = null;

  raise(tier: Tier, reason: string): void {
    if (this.reason === "" || RANK[tier] > RANK[this.tier]) [this.tier, this.reason] = [tier, reason];
  }
}

export function classifyBash(script: ShellScript, roots: WorkspaceRoots): BashJudgement {
  const judge = new Judge();
  if (script.error !== null) judge.raise("tier2", `the line cannot be parsed (${script.error})`);
  for (const feature of script.features) {
    const { tier, why } = FEATURE_TIER[feature.kind];
    judge.raise(tier, `"${feature.text}" ${why}`);
  }
  const paths = new PathCheck(roots);
  const commands = script.commands.map((command) => judgeCommand(command, { judge, paths }));
  const writeRedirects = script.redirects.flatMap((redirect) => judgeRedirect(redirect, { judge, paths }));
  if (script.commands.length === 0 && script.redirects.length === 0 && judge.reason === "") {
    judge.raise("read", "the line runs no command");
  }
  if (judge.tier === "read") judge.reason = readReason(commands);
  return { tier: judge.tier, reason: judge.reason, outside: judge.outside, commands, writeRedirects };
}

function readReason(commands: CommandJudgement[]): string {
  const names = [...new Set(commands.map((command) => command.argv[0]).filter((name) => name))];
  return names.length === 0 ? "the line runs no command" : `${names.join(", ")} only read`;
}

interface Scope {
  judge: Judge;
  paths: PathCheck;
}

function judgeCommand(command: ShellCommand, scope: Scope): CommandJudgement {
  const argv = command.argv.map((word) => word.value);
  const local = new Judge();
  const effective: (string | null)[][] = [argv];
  if (argv.length === 0) local.raise("tier1", `"${command.text}" assigns a shell variable`);
  if (command.assignments.length > 0) {
    local.raise("tier1", `"${command.assignments[0]}" sets a variable for the command`);
  }
  const glob = command.argv.find((word) => word.glob);
  if (glob) local.raise("tier1", `"${glob.raw}" is a pattern the shell expands into file names`);
  if (argv.length > 0) judgeArgv(argv, { local, scope, effective, depth: 0 });
  scope.judge.raise(local.tier, local.reason);
  return {
    text: command.text,
    argv,
    tier: local.tier,
    reason: local.reason,
    substituted: command.substituted,
    effective,
  };
}

function judgeArgv(
  argv: (string | null)[],
  context: { local: Judge; scope: Scope; effective: (string | null)[][]; depth: number },
): void {
  const { local, scope } = context;
  const name = argv[0];
  if (name === null || name === undefined || name === "") {
    local.raise("tier2", "the command name is computed when the shell runs");
    return;
  }
  if (/[^\x21-\x7e]/.test(name)) {
    local.raise("tier1", `the command name "${name}" has characters that can look like another command`);
  }
  if (name === "cd" || name === "pushd") scope.paths.changeDirectory(argv[1]);
  if (name.includes("/")) {
    local.raise("write", `"${name}" runs a program by path`);
    return;
  }
  const verdict = judgeProgram(argv);
  if (verdict.kind === "read") {
    local.raise("read", `${name} only reads`);
    return;
  }
  if (verdict.kind !== "wrap") {
    local.raise(verdict.kind, verdict.reason);
    if (PATH_WRITERS.has(name)) checkPathArgs(argv, scope);
    return;
  }
  if (verdict.tier1) local.raise("tier1", verdict.tier1);
  if (verdict.privileged) {
    local.raise("write", verdict.reason);
    scope.judge.outside ??= verdict.reason;
  }
  context.effective.push(verdict.argv);
  if (context.depth >= MAX_WRAP_DEPTH) {
    local.raise("tier2", `the command wraps more than ${MAX_WRAP_DEPTH} commands`);
    return;
  }
  judgeArgv(verdict.argv, { ...context, depth: context.depth + 1 });
}

function checkPathArgs(argv: (string | null)[], scope: Scope): void {
  for (const arg of argv.slice(1)) {
    if (arg === null) continue;
    const path = arg.startsWith("of=") ? arg.slice(3) : arg.startsWith("-") ? null : arg;
    if (path !== null && !scope.paths.inside(path)) {
      scope.judge.outside ??= `"${argv[0]}" changes "${path}", outside the workspace`;
    }
  }
}

function judgeRedirect(redirect: ShellRedirect, scope: Scope): string[] {
  const { op, target } = redirect;
  if (op.startsWith("<<") || op === "<") return [];
  if ((op === ">&" || op === "<&") && target?.value !== null && /^(\d+|-)$/.test(target?.value ?? "")) {
    return [];
  }
  if (target === null || target.value === null || target.glob) {
    scope.judge.raise("tier1", `the redirect "${redirect.text}" writes to a file named when the shell runs`);
    return [redirect.text];
  }
  if (SAFE_SINKS.has(target.value)) return [];
  scope.judge.raise("write", `the redirect "${redirect.text}" writes a file`);
  if (!scope.paths.inside(target.value)) {
    scope.judge.outside ??= `the redirect "${redirect.text}" writes outside the workspace`;
  }
  return [redirect.text];
}

class PathCheck {
  #roots: string[];
  #root: string;
  #moved = false;

  constructor(roots: WorkspaceRoots) {
    this.#root = roots.root;
    this.#roots = [roots.root, ...roots.extraWritable, TEMP_ROOT];
  }

  /** After `cd` to somewhere unknown or outside, relative paths can no longer be proven inside. */
  changeDirectory(target: string | null | undefined): void {
    if (target === undefined || target === null || target === "-" || !this.inside(target)) this.#moved = true;
  }

  inside(path: string): boolean {
    if (path.startsWith("~")) return false;
    const absolute = posix.isAbsolute(path);
    if (!absolute && this.#moved) return false;
    const full = posix.normalize(absolute ? path : posix.join(this.#root, path));
    return this.#roots.some((root) =>
      full === root || full.startsWith(root.endsWith("/") ? root : `${root}/`)
    );
  }
}
