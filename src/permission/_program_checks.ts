/**
 * @module
 * Per-program checks for the classifier: which arguments keep git, find, sed, awk and a few flag-sensitive
 * readers read-only, and which make them write files or run other commands.
 */

export type Verdict =
  | { kind: "read" }
  | { kind: "write"; reason: string }
  | { kind: "tier1"; reason: string }
  | { kind: "tier2"; reason: string }
  /** Runs `argv` (the inner command) with `tier1` set when its arguments are not fixed. */
  | { kind: "wrap"; argv: (string | null)[]; reason: string; tier1?: string; privileged?: boolean };

export const READ: Verdict = { kind: "read" };

export function flagChecked(name: string, args: (string | null)[]): Verdict | null {
  const has = (...flags: string[]) =>
    args.some((arg) => arg !== null && flags.some((flag) => arg === flag || arg.startsWith(`${flag}=`)));
  const positionals = args.filter((arg) => arg === null || !arg.startsWith("-")).length;
  const writes = (what: string): Verdict => ({ kind: "write", reason: `"${name} ${what}" writes files` });
  switch (name) {
    case "sort":
      return has("-o", "--output") || args.some((arg) => arg?.startsWith("-o")) ? writes("-o") : READ;
    case "tree":
      return has("-o") ? writes("-o") : READ;
    case "uniq":
    case "xxd":
      return positionals > 1 ? writes("IN OUT") : READ;
    case "date":
      return has("-s", "--set") ? { kind: "write", reason: `"date --set" changes the clock` } : READ;
    case "hostname":
      return positionals > 0 ? { kind: "write", reason: `"hostname NAME" renames the host` } : READ;
    case "rg":
      return has("--pre") ? { kind: "tier2", reason: `"rg --pre" runs a command on every file` } : READ;
    case "yq":
      return has("-i", "--inplace") ? writes("-i") : READ;
    case "fd":
      return has("-x", "--exec", "-X", "--exec-batch")
        ? { kind: "write", reason: `"fd --exec" runs commands` }
        : READ;
  }
  return null;
}

const GIT_READ = new Set([
  "status",
  "log",
  "diff",
  "show",
  "blame",
  "shortlog",
  "describe",
  "rev-parse",
  "rev-list",
  "ls-files",
  "ls-tree",
  "cat-file",
  "grep",
  "merge-base",
  "show-ref",
  "for-each-ref",
  "whatchanged",
  "version",
  "name-rev",
  "count-objects",
  "check-ignore",
  "annotate",
]);
const GIT_UNSAFE = ["--output", "-O", "--open-files-in-pager", "--ext-diff"];
const GIT_BRANCH_SAFE = new Set([
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
  "--show-current",
  "-l",
  "--list",
]);

export function git(args: (string | null)[]): Verdict {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === "-c" || arg?.startsWith("--config-env")) {
      return { kind: "tier2", reason: `"git -c" can set a configuration that runs commands` };
    }
    if (arg === "-C" || arg === "--git-dir" || arg === "--work-tree" || arg === "--namespace") i++;
    else if (arg === null || !arg.startsWith("-")) break;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  if (sub === null || sub === undefined) {
    return sub === null ? { kind: "tier2", reason: "the git subcommand is computed" } : READ;
  }
  const unsafe = rest.some((arg) =>
    arg === null || GIT_UNSAFE.some((flag) => arg === flag || arg.startsWith(flag))
  );
  const ok = (safe: boolean): Verdict =>
    safe
      ? READ
      : { kind: "write", reason: `"git ${sub}" with these arguments changes the repository or files` };
  if (GIT_READ.has(sub)) return ok(!unsafe);
  const values = rest.filter((arg): arg is string => arg !== null);
  switch (sub) {
    case "branch":
      return ok(values.length === rest.length && values.every((arg) => GIT_BRANCH_SAFE.has(arg)));
    case "tag":
      return ok(rest.length === 0 || (rest[0] === "-l" || rest[0] === "--list"));
    case "remote":
      return ok(rest.length === 0 || (rest.length === 1 && rest[0] === "-v") || rest[0] === "get-url");
    case "stash":
      return ok(rest[0] === "list" || rest[0] === "show");
    case "worktree":
      return ok(rest[0] === "list");
    case "config":
      return ok(values.some((arg) => ["--get", "--get-all", "--list", "-l", "--get-regexp"].includes(arg)));
    case "reflog":
      return ok(rest.length === 0 || rest[0] === "show");
  }
  return { kind: "write", reason: `"git ${sub}" changes the repository or files` };
}

export function find(args: (string | null)[]): Verdict {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === "-exec" || arg === "-execdir" || arg === "-ok" || arg === "-okdir") {
      const end = args.findIndex((item, index) => index > i && (item === ";" || item === "+"));
      const inner = args.slice(i + 1, end === -1 ? undefined : end);
      if (inner.length === 0) return { kind: "tier2", reason: `"find ${arg}" has no command` };
      return {
        kind: "wrap",
        argv: inner,
        reason: `"find ${arg}" runs a command on each file`,
        tier1: `"find ${arg}" adds file names to the command`,
      };
    }
    if (arg === "-delete" || arg?.startsWith("-fprint") || arg === "-fls") {
      return { kind: "write", reason: `"find ${arg}" changes files` };
    }
  }
  return READ;
}

const SED_SAFE_REST = /^[\d\s,$;!{}pdqlnNP=gGhHxD~+]*$/;

export function sed(args: (string | null)[]): Verdict {
  const scripts: (string | null)[] = [];
  let positional = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === null) return { kind: "write", reason: "the sed arguments are computed" };
    if (arg.startsWith("-i") || arg.startsWith("--in-place") || arg === "-f" || arg.startsWith("--file")) {
      return { kind: "write", reason: `"sed ${arg}" edits or reads a script file` };
    }
    if (arg === "-e" || arg === "--expression") scripts.push(args[++i] ?? null);
    else if (!arg.startsWith("-") && !positional && scripts.length === 0) {
      positional = true;
      scripts.push(arg);
    }
  }
  const safe = scripts.every((script) => script !== null && SED_SAFE_REST.test(stripSed(script)));
  return safe ? READ : { kind: "write", reason: "the sed script may write files or run commands" };
}

function stripSed(script: string): string {
  return script
    .replace(/s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImM0-9]*/g, ";")
    .replace(/\/(?:\\.|[^/])*\//g, "");
}

export function awk(args: (string | null)[]): Verdict {
  if (args.some((arg) => arg === "-f" || arg?.startsWith("--file"))) {
    return { kind: "write", reason: "awk runs a program file" };
  }
  const valued = new Set(["-F", "-v", "--field-separator", "--assign"]);
  let program: string | null | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg !== null && valued.has(arg)) i++;
    else if (arg === null || !arg.startsWith("-")) {
      program = arg;
      break;
    }
  }
  if (program === undefined) return READ;
  if (program === null || /system|getline|\||>|\bprintf?\s*[^;]*>/.test(program)) {
    return { kind: "tier2", reason: "the awk program can run commands or write files" };
  }
  return READ;
}
