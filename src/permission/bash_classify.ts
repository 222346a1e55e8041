/**
 * @module
 * Judges a parsed bash line (pure). Tiers, lowest first: `read` (known read-only commands with safe
 * flags), `write` (anything else that is fixed text), `tier1` (the line expands at run time: variables,
 * arithmetic, assignments, here-documents, globs, unproven redirects), `tier2` (it runs text as code or
 * computes what to run: substitutions, eval/source, nested execution, options that name programs,
 * variables that decide what runs, look-alike characters, a second command after a newline, a parse
 * failure). Each judgement names the class of reason that decided it.
 */
import { posix } from "node:path";
import { judgeProgram, PATH_WRITERS, runsCode } from "./_commands.ts";
import { PathCheck } from "./_paths.ts";
import { isDangerousVariable } from "./_variables.ts";
import type { JudgeClass } from "./_verdict.ts";
import { characterProblem } from "./characters.ts";
import type { ShellCommand, ShellFeatureKind, ShellRedirect, ShellScript } from "./shell_script.ts";

export type { JudgeClass };
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
  class: JudgeClass;
  /** Inside `$(...)` or `<(...)`, or in a shell string: never covered by an allow rule. */
  substituted: boolean;
  /** Its exit status cannot fail the line (`a || b`, `! a`, an `if` condition). */
  statusHidden: boolean;
  /** The argv itself plus every command it wraps (`env X=1 rm`, `xargs rm`, `find -exec rm`). */
  effective: (string | null)[][];
}

export interface BashJudgement {
  tier: Tier;
  reason: string;
  class: JudgeClass;
  /** Why this line reaches outside the workspace (or runs as another user); null when it does not. */
  outside: string | null;
  /** Every simple command, also those inside literal `sh -c '…'` and `eval '…'` strings. */
  commands: CommandJudgement[];
  /** Redirects that write to a file (no prefix rule covers them). */
  writeRedirects: string[];
  /** Files the line writes, relative to the workspace like file-tool subjects; null when unknown. */
  writePaths: (string | null)[];
  /** Shell code the policy cannot read: `eval "$x"`, `sh -c "$x"`, a shell reading its input. */
  opaque: string[];
  /** The line (or a shell string in it) does not parse. */
  unparsed: boolean;
}

const RANK: Readonly<Record<Tier, number>> = { read: 0, write: 1, tier1: 2, tier2: 3 };

const FEATURE_TIER: Readonly<Record<ShellFeatureKind, { tier: Tier; why: string; class: JudgeClass }>> = {
  command_substitution: {
    tier: "tier2",
    why: "runs a command and splices its output into the line",
    class: "substitution",
  },
  process_substitution: {
    tier: "tier2",
    why: "runs a command and passes it as a file",
    class: "substitution",
  },
  function_definition: {
    tier: "tier2",
    why: "defines a function that can stand in for any command",
    class: "dynamic-code",
  },
  unknown_construct: {
    tier: "tier2",
    why: "is a shell construct the policy does not judge",
    class: "parse-error",
  },
  parameter_expansion: { tier: "tier1", why: "expands a variable when the shell runs", class: "expansion" },
  arithmetic: { tier: "tier1", why: "evaluates arithmetic when the shell runs", class: "expansion" },
  assignment: { tier: "tier1", why: "assigns a shell variable", class: "assignment" },
  heredoc: { tier: "tier1", why: "feeds text to the command's input", class: "heredoc" },
  brace_expansion: { tier: "tier1", why: "expands into several words", class: "expansion" },
};

const SAFE_SINKS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"]);
const MAX_WRAP_DEPTH = 8;
/** Destination-only writers: their other paths are read. */
const COPIERS = new Set(["cp", "ln", "install", "rsync"]);

class Judge {
  tier: Tier = "read";
  reason = "";
  class: JudgeClass = "read-only";

  raise(tier: Tier, reason: string, kind: JudgeClass): void {
    if (this.reason === "" || RANK[tier] > RANK[this.tier]) {
      [this.tier, this.reason, this.class] = [tier, reason, kind];
    }
  }
}

interface Scope {
  judge: Judge;
  paths: PathCheck;
  result: BashJudgement;
  script: ShellScript;
  roots: WorkspaceRoots;
  substituted: boolean;
}

export function classifyBash(script: ShellScript, roots: WorkspaceRoots): BashJudgement {
  const result: BashJudgement = {
    tier: "read",
    reason: "",
    class: "read-only",
    outside: null,
    commands: [],
    writeRedirects: [],
    writePaths: [],
    opaque: [],
    unparsed: false,
  };
  const judge = new Judge();
  judgeScript(script, { judge, paths: new PathCheck(roots), result, script, roots, substituted: false });
  if (judge.tier === "read") judge.reason = readReason(result.commands);
  return { ...result, tier: judge.tier, reason: judge.reason, class: judge.class };
}

function judgeScript(script: ShellScript, scope: Scope): void {
  const { judge } = scope;
  if (script.error !== null) {
    judge.raise("tier2", `the line cannot be parsed (${script.error})`, "parse-error");
    scope.result.unparsed = true;
  }
  const chars = characterProblem(script.source, script.quoted);
  if (chars) judge.raise("tier2", chars.reason, chars.class);
  if (script.topLevelNewline) {
    judge.raise("tier2", "a line break starts a second command", "top-level-newline");
  }
  for (const feature of script.features) {
    const { tier, why, class: kind } = FEATURE_TIER[feature.kind];
    judge.raise(tier, `"${feature.text}" ${why}`, kind);
  }
  const dangerous = script.assigned.find(isDangerousVariable);
  if (dangerous) {
    judge.raise(
      "tier2",
      `the line sets ${dangerous}, which decides what later commands run or load`,
      "dangerous-variable",
    );
  }
  for (const command of script.commands) scope.result.commands.push(judgeCommand(command, scope));
  for (const redirect of script.redirects) {
    scope.result.writeRedirects.push(...judgeRedirect(redirect, scope));
  }
  if (script.commands.length === 0 && script.redirects.length === 0 && judge.reason === "") {
    judge.raise("read", "the line runs no command", "read-only");
  }
}

function readReason(commands: CommandJudgement[]): string {
  const names = [...new Set(commands.map((command) => command.argv[0]).filter((name) => name))];
  return names.length === 0 ? "the line runs no command" : `${names.join(", ")} only read`;
}

function judgeCommand(command: ShellCommand, scope: Scope): CommandJudgement {
  const argv = command.argv.map((word) => word.value);
  const local = new Judge();
  const effective: (string | null)[][] = [argv];
  if (argv.length === 0) local.raise("tier1", `"${command.text}" assigns a shell variable`, "assignment");
  if (command.assignments.length > 0) {
    local.raise("tier1", `"${command.assignments[0]}" sets a variable for the command`, "assignment");
  }
  const glob = command.argv.find((word) => word.glob);
  if (glob) local.raise("tier1", `"${glob.raw}" is a pattern the shell expands into file names`, "expansion");
  if (argv.length > 0) judgeArgv(argv, { local, scope, effective, depth: 0, scheduled: false });
  scope.judge.raise(local.tier, local.reason, local.class);
  return {
    text: command.text,
    argv,
    tier: local.tier,
    reason: local.reason,
    class: local.class,
    substituted: command.substituted || scope.substituted,
    statusHidden: command.statusHidden,
    effective,
  };
}

interface ArgvContext {
  local: Judge;
  scope: Scope;
  effective: (string | null)[][];
  depth: number;
  /** Inside a wrapper that only changes scheduling (`nice`, `timeout`...). */
  scheduled: boolean;
}

function judgeArgv(argv: (string | null)[], context: ArgvContext): void {
  const { local, scope } = context;
  const name = argv[0];
  if (name === null || name === undefined || name === "") {
    local.raise("tier2", "the command name is computed when the shell runs", "dynamic-code");
    return;
  }
  if (/[^\x21-\x7e]/.test(name)) {
    local.raise(
      "tier2",
      `the command name "${name}" has characters that can look like another command`,
      "lookalike-characters",
    );
  }
  if (context.scheduled && runsCode(argv)) {
    local.raise("tier2", `"${name}" runs code or other commands under a wrapper`, "nested-execution");
  }
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (base === "cd" || base === "pushd") scope.paths.changeDirectory(argv[1]);
  if (name.includes("/")) local.raise("write", `"${name}" runs a program by path`, "program-by-path");
  const named = name === base ? argv : [base, ...argv.slice(1)];
  const verdict = judgeProgram(named, { elsewhere: scope.paths.moved });
  if (verdict.kind === "read") {
    local.raise("read", `${name} only reads`, "read-only");
    return;
  }
  if (verdict.kind !== "wrap") {
    local.raise(verdict.kind, verdict.reason, verdict.class);
    if (PATH_WRITERS.has(base)) checkPathArgs(named, scope);
    for (const path of verdict.paths ?? []) recordWrite(path, scope);
    if (verdict.script !== undefined) judgeShellString(verdict.script, verdict.reason, scope);
    return;
  }
  if (verdict.tier1) local.raise("tier1", verdict.tier1, "assignment");
  if (!verdict.scheduling) local.raise("tier2", verdict.reason, "nested-execution");
  if (verdict.privileged) scope.result.outside ??= verdict.reason;
  context.effective.push(verdict.argv);
  if (context.depth >= MAX_WRAP_DEPTH) {
    local.raise("tier2", `the command wraps more than ${MAX_WRAP_DEPTH} commands`, "nested-execution");
    return;
  }
  judgeArgv(verdict.argv, { ...context, depth: context.depth + 1, scheduled: verdict.scheduling });
}

/** The commands inside a literal shell string are judged like the line's own, so deny rules reach them. */
function judgeShellString(text: string | null, why: string, scope: Scope): void {
  const inner = text === null ? undefined : scope.script.inner.get(text);
  if (inner === undefined) {
    scope.result.opaque.push(text === null ? why : `${why}, nested too deep to read`);
    return;
  }
  judgeScript(inner, { ...scope, script: inner, judge: new Judge(), substituted: true });
}

function checkPathArgs(argv: readonly (string | null)[], scope: Scope): void {
  const name = argv[0]!;
  const args = argv.slice(1);
  const positional = args.filter((arg) => arg === null || !arg.startsWith("-") || arg.startsWith("of="));
  for (const path of writtenPaths(name, args, positional)) recordWrite(path, scope);
  for (const arg of positional) {
    const path = arg?.startsWith("of=") ? arg.slice(3) : arg;
    if (path !== null && !scope.paths.inside(path)) {
      scope.result.outside ??= `"${name}" changes "${path}", outside the workspace`;
    }
  }
}

/** The files a PATH_WRITER changes: null for those only known when it runs (archive members). */
function writtenPaths(name: string, args: readonly (string | null)[], positional: (string | null)[]) {
  if (name === "dd") {
    return args.filter((arg) => arg === null || arg.startsWith("of=")).map((arg) => arg?.slice(3) ?? null);
  }
  if (name === "tar") return tarPaths(args);
  if (name === "unzip") return args.includes("-l") ? [] : [null];
  if (!COPIERS.has(name) && name !== "mv") return positional;
  const flag = args.findIndex((arg) => arg === "-t" || arg?.startsWith("--target-directory"));
  const target = flag === -1
    ? positional.at(-1) ?? null
    : args[flag]!.includes("=")
    ? args[flag]!.split("=")[1]!
    : args[flag + 1] ?? null;
  const sources = flag === -1 ? positional.slice(0, -1) : positional;
  const into = target === "." || target?.endsWith("/")
    ? sources.map((source) => source === null ? null : posix.join(target!, posix.basename(source)))
    : [target];
  return name === "mv" ? [...into, ...sources] : into;
}

function tarPaths(args: readonly (string | null)[]): (string | null)[] {
  const first = args.find((arg) => arg !== null) ?? "";
  const mode = /^-?[A-Za-z]*$/.test(first) && !first.startsWith("--") ? first : "";
  if (/[x]/.test(mode) || args.some((arg) => arg === "--extract" || arg === "--get")) return [null];
  if (!/[cruA]/.test(mode) && !args.some((arg) => /^--(create|append|update)$/.test(arg ?? ""))) return [];
  const at = args.findIndex((arg) =>
    arg === "-f" || arg?.startsWith("--file") || arg === mode && mode.includes("f")
  );
  if (at === -1) return [];
  const arg = args[at]!;
  return [arg.startsWith("--file=") ? arg.slice(7) : args[at + 1] ?? null];
}

function recordWrite(path: string | null, scope: Scope): void {
  scope.result.writePaths.push(path === null ? null : scope.paths.subject(path));
}

function judgeRedirect(redirect: ShellRedirect, scope: Scope): string[] {
  const { op, target } = redirect;
  if (op.startsWith("<<") || op === "<") return [];
  if ((op === ">&" || op === "<&") && target?.value !== null && /^(\d+|-)$/.test(target?.value ?? "")) {
    return [];
  }
  if (target === null || target.value === null || target.glob) {
    scope.judge.raise(
      "tier1",
      `the redirect "${redirect.text}" writes to a file named when the shell runs`,
      "write-redirect",
    );
    scope.result.writePaths.push(target?.glob ? target.value : null);
    return [redirect.text];
  }
  if (SAFE_SINKS.has(target.value)) return [];
  scope.judge.raise("write", `the redirect "${redirect.text}" writes a file`, "write-redirect");
  recordWrite(target.value, scope);
  if (!scope.paths.inside(target.value)) {
    scope.result.outside ??= `the redirect "${redirect.text}" writes outside the workspace`;
  }
  return [redirect.text];
}
