/**
 * @module
 * What the classifier knows about individual programs: which only read (and with which flags, see
 * `_readers.ts`), which run other commands (wrappers, shells, interpreters with inline code), and which
 * write to their path arguments.
 */
import { awk, find, sed } from "./_program_checks.ts";
import { git } from "./_git.ts";
import { judgeReader } from "./_readers.ts";
import { isDangerousVariable } from "./_variables.ts";
import { READ, tier2, type Verdict, writes } from "./_verdict.ts";

export type { Verdict };

/** Programs that change files: their literal path arguments are checked against the workspace. */
export const PATH_WRITERS = new Set([
  "rm",
  "rmdir",
  "mv",
  "cp",
  "touch",
  "mkdir",
  "chmod",
  "chown",
  "chgrp",
  "ln",
  "tee",
  "truncate",
  "install",
  "unlink",
  "shred",
  "rsync",
  "dd",
  "tar",
  "unzip",
]);

export const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox"]);

/** Interpreter → the flags that take inline code. */
const INLINE_CODE: Readonly<Record<string, readonly string[]>> = {
  python: ["-c"],
  python2: ["-c"],
  python3: ["-c"],
  pypy: ["-c"],
  pypy3: ["-c"],
  node: ["-e", "--eval", "-p", "--print"],
  nodejs: ["-e", "--eval", "-p", "--print"],
  bun: ["-e", "--eval"],
  perl: ["-e", "-E"],
  ruby: ["-e"],
  php: ["-r"],
  lua: ["-e"],
  luajit: ["-e"],
  Rscript: ["-e"],
  osascript: ["-e"],
  pwsh: ["-c", "-command", "-encodedcommand"],
  powershell: ["-c", "-command"],
  tclsh: [],
  irb: [],
  ghci: ["-e"],
  julia: ["-e"],
  elixir: ["-e"],
  erl: ["-eval"],
};

const ALWAYS_DYNAMIC: Readonly<Record<string, string>> = {
  eval: "eval runs a string as shell code",
  source: "source runs another file's shell code in this shell",
  ".": ". runs another file's shell code in this shell",
  trap: "trap installs shell code to run later",
  alias: "alias can change what a command name runs",
  unalias: "unalias changes what a command name runs",
  enable: "enable can replace shell builtins",
  shopt: "shopt changes how the shell expands later commands",
  coproc: "coproc runs a command in the background of this shell",
  let: "let evaluates arithmetic with side effects",
  read: "read assigns input to variables",
  mapfile: "mapfile assigns input to variables",
  readarray: "readarray assigns input to variables",
  fc: "fc re-runs commands from history",
};

const VARIABLE_CHANGES: Readonly<Record<string, string>> = {
  unset: "unset removes shell variables or functions later commands rely on",
  hash: "hash changes where the shell finds commands",
};

const DECLARATIONS = new Set(["declare", "typeset", "local", "export", "readonly"]);

interface WrapperSpec {
  valued: readonly string[];
  positional?: number;
  /** Only changes how the inner command is scheduled (priority, time limit, buffering). */
  scheduling?: true;
  privileged?: true;
}

/** Flags that take a value, per wrapper, so the inner command is found after them. */
const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  nice: { valued: ["-n", "--adjustment"], scheduling: true },
  nohup: { valued: [], scheduling: true },
  time: { valued: ["-f", "--format", "-o", "--output"], scheduling: true },
  timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], positional: 1, scheduling: true },
  command: { valued: [], scheduling: true },
  builtin: { valued: [], scheduling: true },
  stdbuf: { valued: ["-i", "-o", "-e"], scheduling: true },
  ionice: { valued: ["-c", "-n", "-p"], scheduling: true },
  chrt: { valued: [], positional: 1, scheduling: true },
  setsid: { valued: [], scheduling: true },
  exec: { valued: ["-a"] },
  watch: { valued: ["-n", "--interval", "-d", "-q", "--equexit"] },
  sudo: {
    valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"],
    privileged: true,
  },
  doas: { valued: ["-u", "-C"], privileged: true },
  xargs: {
    valued: ["-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--delimiter"],
  },
};

export function judgeProgram(
  argv: readonly (string | null)[],
  options: { elsewhere?: boolean } = {},
): Verdict {
  const name = argv[0]!;
  const args = argv.slice(1);
  if (ALWAYS_DYNAMIC[name] !== undefined) {
    if (name === "alias" && args.length === 0) return READ;
    const script = name === "eval" ? joined(args) : undefined;
    return { ...tier2(ALWAYS_DYNAMIC[name]!, "dynamic-code"), ...(script !== undefined ? { script } : {}) };
  }
  if (VARIABLE_CHANGES[name] !== undefined) {
    return { kind: "tier1", reason: VARIABLE_CHANGES[name]!, class: "assignment" };
  }
  if (name === "env") return envCommand(args);
  if (WRAPPERS[name] !== undefined) return wrapper(name, args);
  if (SHELLS.has(name)) return shell(name, args);
  if (INLINE_CODE[name] !== undefined) return interpreter(name, args);
  if (DECLARATIONS.has(name)) return declaration(name, args);
  switch (name) {
    case "deno":
      return deno(args);
    case "git":
      return git(args, options.elsewhere);
    case "find":
      return find(args);
    case "sed":
      return sed(args);
    case "awk":
    case "gawk":
    case "mawk":
    case "nawk":
      return awk(args);
    case "printf":
      return printf(args);
  }
  return judgeReader(name, args) ?? programOption(name, args) ??
    writes(`"${name}" is not a known read-only command`, "unknown-program");
}

/** Writers whose options name a program to run: tar's compressor and scripts, rsync's remote shell. */
const PROGRAM_OPTIONS: Readonly<Record<string, RegExp>> = {
  tar:
    /^(-[A-Za-z]*[IF]|--use-compress|--to-command|--checkpoint-action|--info-script|--new-volume-script|--rsh-command|--rmt-command)/,
  rsync: /^(-[A-Za-z]*e|--rsh|--rsync-path)/,
  zip: /^(-[A-Za-z]*TT|--unzip-command)/,
};

function programOption(name: string, args: readonly (string | null)[]): Verdict | null {
  const pattern = PROGRAM_OPTIONS[name];
  const found = pattern && args.find((arg) => arg !== null && pattern.test(arg));
  return found ? tier2(`"${name} ${found}" names a program to run`, "program-option") : null;
}

/** A command that runs code or other commands: under `nice`, `timeout`... it is nested execution. */
export function runsCode(argv: readonly (string | null)[]): boolean {
  const name = argv[0];
  if (name === null || name === undefined) return true;
  const base = name.slice(name.lastIndexOf("/") + 1);
  if (SHELLS.has(base) || INLINE_CODE[base] !== undefined || ALWAYS_DYNAMIC[base] !== undefined) return true;
  if (
    base === "deno" ||
    base === "find" && argv.some((arg) => arg?.startsWith("-exec") || arg?.startsWith("-ok"))
  ) {
    return true;
  }
  const spec = WRAPPERS[base];
  if (spec && !spec.scheduling) return true;
  return base === "env" && envCommand(argv.slice(1)).kind === "wrap";
}

function joined(args: readonly (string | null)[]): string | null {
  return args.some((arg) => arg === null) ? null : args.join(" ");
}

function envCommand(args: readonly (string | null)[]): Verdict {
  let i = 0;
  let assigns = false;
  for (; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === null) return tier2("env runs a command whose name is computed", "nested-execution");
    if (arg === "-S" || arg.startsWith("--split-string")) {
      const text = arg === "-S" ? args[i + 1] ?? null : arg.slice(arg.indexOf("=") + 1);
      return { ...tier2(`"env -S" splits a string into a command line`, "nested-execution"), script: text };
    }
    const name = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(arg)?.[1];
    if (name !== undefined && isDangerousVariable(name)) {
      return tier2(`env sets ${name}, which decides what later commands run or load`, "dangerous-variable");
    }
    if (arg === "-u" || arg === "--unset" || arg === "-C" || arg === "--chdir") i++;
    else if (name !== undefined) assigns = true;
    else if (!arg.startsWith("-")) break;
  }
  if (i >= args.length) return READ;
  return {
    kind: "wrap",
    argv: args.slice(i),
    reason: "env runs a command",
    scheduling: false,
    ...(assigns ? { tier1: "env sets variables for the command" } : {}),
  };
}

function wrapper(name: string, args: readonly (string | null)[]): Verdict {
  const spec = WRAPPERS[name]!;
  if (name === "command" && args.some((arg) => arg === "-v" || arg === "-V")) return READ;
  let i = 0;
  let skip = spec.positional ?? 0;
  let replace: string | null = null;
  for (; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === null) break;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      if (name === "xargs" && (arg === "-I" || arg === "-i" || arg.startsWith("-I"))) {
        replace = arg === "-I" ? args[i + 1] ?? null : arg.length > 2 ? arg.slice(2) : "{}";
      }
      if (spec.valued.includes(arg)) i++;
      continue;
    }
    if (skip-- > 0) continue;
    break;
  }
  const inner = args.slice(i);
  if (inner.length === 0) {
    return name === "xargs"
      ? { kind: "tier1", reason: "xargs builds a command from its input", class: "nested-execution" }
      : READ;
  }
  // xargs adds words from its input: a denied `git push` is reachable as `echo push | xargs git`.
  const argv = name === "xargs"
    ? [...inner.map((word) => replace !== null && word?.includes(replace) ? null : word), null]
    : inner;
  return {
    kind: "wrap",
    argv,
    reason: spec.privileged ? `${name} runs a command as another user` : `${name} runs a command`,
    scheduling: spec.scheduling === true,
    ...(spec.privileged ? { privileged: true } : {}),
  };
}

function shortCluster(arg: string | null, letter: string): boolean {
  return arg !== null && /^-[A-Za-z]+$/.test(arg) && arg.includes(letter);
}

function shell(name: string, args: readonly (string | null)[]): Verdict {
  if (args.length === 1 && (args[0] === "--version" || args[0] === "--help")) return READ;
  const at = args.findIndex((arg, i) =>
    arg === null || !/^[-+]/.test(arg) && !/^[-+][oO]$/.test(args[i - 1] ?? "")
  );
  const script = at === -1 ? undefined : args[at]!;
  if (args.some((arg) => shortCluster(arg, "c"))) {
    return {
      ...tier2(`"${name} -c" runs a string as shell code`, "nested-execution"),
      script: script ?? null,
    };
  }
  if (
    script === undefined || script === "-" ||
    args.some((arg) => shortCluster(arg, "s") || shortCluster(arg, "i"))
  ) {
    return {
      ...tier2(`"${name}" without a script runs shell code from its input`, "nested-execution"),
      script: null,
    };
  }
  return writes(`"${name}" runs a script`, "unknown-program");
}

function interpreter(name: string, args: readonly (string | null)[]): Verdict {
  const flags = INLINE_CODE[name]!;
  const inline = args.some((arg) =>
    arg !== null && flags.some((flag) =>
      arg.toLowerCase() === flag || arg.startsWith(`${flag}=`) ||
      (flag.length === 2 && shortCluster(arg, flag[1]!))
    )
  );
  if (inline) return tier2(`"${name}" runs inline code`, "dynamic-code");
  const script = args.find((arg) => arg === null || !arg.startsWith("-"));
  if (script === undefined || script === "-") {
    if (args.some((arg) => arg === "--version" || arg === "-V" || arg === "-v")) return READ;
    return tier2(`"${name}" without a script runs code from its input`, "dynamic-code");
  }
  return writes(`"${name}" runs a program`, "unknown-program");
}

function deno(args: readonly (string | null)[]): Verdict {
  const sub = args[0];
  if (sub === undefined || sub === null) {
    return tier2(`"deno" without a subcommand runs code`, "dynamic-code");
  }
  if (sub === "eval" || sub === "repl") return tier2(`"deno ${sub}" runs inline code`, "dynamic-code");
  if (sub === "--version" || sub === "-V" || sub === "info" || sub === "doc") return READ;
  return writes(`"deno ${sub}" runs a program`, "unknown-program");
}

/** `printf -v NAME` assigns the output to a variable instead of printing it. */
function printf(args: readonly (string | null)[]): Verdict {
  const at = args.findIndex((arg) =>
    arg === null || arg === "--" || !arg.startsWith("-") || arg.startsWith("-v")
  );
  const flag = at === -1 ? undefined : args[at];
  if (flag === null || flag === undefined || !flag.startsWith("-v")) {
    const unknown = args.slice(0, at === -1 ? args.length : at).find((arg) => arg !== "--");
    return unknown ? writes(`"printf ${unknown}" is not a flag the policy knows to be read-only`) : READ;
  }
  const variable = flag === "-v" ? args[at + 1] ?? null : flag.slice(2);
  if (variable === null || isDangerousVariable(variable.replace(/\[.*$/, ""))) {
    return tier2(
      `"printf -v ${variable ?? "$…"}" sets a variable that decides what later commands run`,
      "dangerous-variable",
    );
  }
  return { kind: "tier1", reason: `"printf -v ${variable}" assigns a shell variable`, class: "assignment" };
}

/** The assigned names are judged from the parse; `-n` makes a name refer to any other variable. */
function declaration(name: string, args: readonly (string | null)[]): Verdict {
  if (args.some((arg) => arg !== null && /^-[a-zA-Z]*n/.test(arg))) {
    return tier2(`"${name} -n" makes a name stand for another variable`, "dangerous-variable");
  }
  return READ;
}
