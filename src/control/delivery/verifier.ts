/**
 * @module
 * Whether a bash line checks the work, for verified delivery and goal mode's progress: it runs a test
 * runner, build, type checker or linter (check_programs.ts), a project script under the workspace named
 * like a check (`./scripts/test.sh`, `bin/check`), or a command the user named in `[agent]
 * verify_commands`. Read through the permission classifier's parse, so `cd app && CI=1 timeout 60 npm
 * test | tail` counts; a line that only prints or inspects (echo, cat, ls, grep, git status) does not.
 * Exit 0 of a line vouches only for checks whose failure would fail it: never one left of `||`, after
 * `!`, in an `if`/`while` condition, or inside `$(…)` or a shell string.
 */
import { posix } from "node:path";
import { parseBash } from "../../permission/bash_parse.ts";
import { type BashJudgement, classifyBash } from "../../permission/bash_classify.ts";
import { baseName, namedLikeCheck, runsCheck } from "./check_programs.ts";

export interface VerifierOptions {
  /** The workspace root: a project script counts when it lies under it. */
  root: string;
  /** `[agent] verify_commands`: command prefixes (whole words) the user counts as checks. */
  verifyCommands: readonly string[];
}

/** What the host names when a passing command checked nothing (notes.ts). */
export const CHECK_EXAMPLES = [
  "deno test",
  "npm test",
  "pytest",
  "go test ./...",
  "cargo test",
  "tsc --noEmit",
  "./scripts/test.sh",
];

/** Parses and judges one bash command line. */
export async function commandVerifies(command: string, options: VerifierOptions): Promise<boolean> {
  const judgement = classifyBash(await parseBash(command), { root: options.root, extraWritable: [] });
  return verifiesWork(judgement, options);
}

/** The judged line runs a check whose failure would make the whole line fail. */
export function verifiesWork(judgement: BashJudgement, options: VerifierOptions): boolean {
  if (judgement.unparsed) return false;
  const prefixes = options.verifyCommands.map((prefix) => prefix.trim().split(/\s+/)).filter((p) => p[0]);
  let cwd: string | null = options.root;
  for (const command of judgement.commands) {
    if (command.substituted) continue;
    const levels = command.effective.map((argv) => argv.map((word) => word ?? ""));
    const argv = levels.at(-1) ?? [];
    if (argv[0] === "cd" || argv[0] === "pushd") {
      cwd = changedDirectory(cwd, command.effective.at(-1)?.[1]);
      continue;
    }
    if (command.statusHidden || argv[0] === "") continue;
    if (levels.some((level) => prefixes.some((prefix) => startsWithWords(level, prefix)))) return true;
    if (runsCheck(argv) || projectScript(argv, cwd, options.root)) return true;
  }
  return false;
}

function startsWithWords(argv: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= argv.length && prefix.every((word, i) => argv[i] === word);
}

/** Where `cd <arg>` leads; null when it is not known (`cd`, `cd -`, `cd "$X"`, an unknown start). */
function changedDirectory(cwd: string | null, arg: string | null | undefined): string | null {
  if (cwd === null || arg === null || arg === undefined || arg === "-" || arg.startsWith("~")) return null;
  return posix.resolve(cwd, arg);
}

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh"]);

/** `./scripts/test.sh`, `bin/check`, `sh ci.sh`: a script inside the workspace, named like a check. */
function projectScript(argv: readonly string[], cwd: string | null, root: string): boolean {
  const [program = "", ...args] = argv;
  if (!SHELLS.has(baseName(program))) return program.includes("/") && checkScriptInside(program, cwd, root);
  // `sh -c '…'` runs a string (judged as its own commands), `sh -s` reads its input.
  if (args.some((arg) => /^-[a-z]*[cs]/.test(arg))) return false;
  const script = args.find((arg) => !arg.startsWith("-"));
  return script !== undefined && checkScriptInside(script, cwd, root);
}

function checkScriptInside(path: string, cwd: string | null, root: string): boolean {
  if (!namedLikeCheck(baseName(path))) return false;
  if (cwd === null && !path.startsWith("/")) return false;
  return posix.resolve(cwd ?? root, path).startsWith(`${posix.resolve(root)}/`);
}
