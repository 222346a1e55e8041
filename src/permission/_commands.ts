/**
 * @module
 * What the classifier knows about individual programs: which only read (and with which flags), which
 * run other commands (wrappers, interpreters with inline code), and which write to their path arguments.
 */
import { awk, find, flagChecked, git, READ, sed, type Verdict } from "./_program_checks.ts";

export type { Verdict };

/** Read-only whatever their arguments. */
const PLAIN_READERS = new Set([
  "cat",
  "head",
  "tail",
  "wc",
  "pwd",
  "echo",
  "printf",
  "true",
  "false",
  ":",
  "ls",
  "dir",
  "whoami",
  "id",
  "uname",
  "which",
  "type",
  "whereis",
  "basename",
  "dirname",
  "realpath",
  "readlink",
  "stat",
  "file",
  "du",
  "df",
  "grep",
  "egrep",
  "fgrep",
  "cut",
  "tr",
  "nl",
  "cmp",
  "comm",
  "diff",
  "seq",
  "printenv",
  "test",
  "[",
  "sleep",
  "ps",
  "free",
  "uptime",
  "nproc",
  "arch",
  "groups",
  "tac",
  "rev",
  "paste",
  "join",
  "fmt",
  "fold",
  "expand",
  "unexpand",
  "column",
  "od",
  "hexdump",
  "strings",
  "md5sum",
  "sha1sum",
  "sha256sum",
  "sha512sum",
  "cksum",
  "b2sum",
  "jq",
  "less",
  "more",
  "cd",
  "pushd",
  "popd",
  "dirs",
  "locale",
  "tty",
  "set",
  "shift",
  "exit",
  "return",
  "break",
  "continue",
  "wait",
  "jobs",
  "help",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "cal",
  "look",
  "numfmt",
  "getconf",
  "lsof",
  "pgrep",
  "tsort",
  "iconv",
]);

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

const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox"]);

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

/** Flags that take a value, per wrapper, so the inner command is found after them. */
const WRAPPERS: Readonly<Record<string, { valued: readonly string[]; positional?: number }>> = {
  nice: { valued: ["-n", "--adjustment"] },
  nohup: { valued: [] },
  time: { valued: ["-f", "--format", "-o", "--output"] },
  timeout: { valued: ["-s", "--signal", "-k", "--kill-after"], positional: 1 },
  command: { valued: [] },
  builtin: { valued: [] },
  exec: { valued: ["-a"] },
  stdbuf: { valued: ["-i", "-o", "-e"] },
  ionice: { valued: ["-c", "-n", "-p"] },
  chrt: { valued: [], positional: 1 },
  sudo: { valued: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "--user", "--group"] },
  doas: { valued: ["-u", "-C"] },
  xargs: {
    valued: ["-I", "-L", "-n", "-P", "-d", "-E", "-s", "-a", "--max-args", "--max-procs", "--delimiter"],
  },
};

export function judgeProgram(argv: (string | null)[]): Verdict {
  const name = argv[0]!;
  const args = argv.slice(1);
  if (ALWAYS_DYNAMIC[name!] !== undefined) {
    if (name === "alias" && args.length === 0) return READ;
    return { kind: "tier2", reason: ALWAYS_DYNAMIC[name!]! };
  }
  if (VARIABLE_CHANGES[name!] !== undefined) return { kind: "tier1", reason: VARIABLE_CHANGES[name!]! };
  if (name === "env") return envCommand(args);
  if (WRAPPERS[name!] !== undefined) return wrapper(name!, args);
  if (SHELLS.has(name!)) return shell(name!, args);
  if (INLINE_CODE[name!] !== undefined) return interpreter(name!, args);
  if (name === "deno") return deno(args);
  if (name === "git") return git(args);
  if (name === "find") return find(args);
  if (name === "sed") return sed(args);
  if (name === "awk" || name === "gawk" || name === "mawk" || name === "nawk") return awk(args);
  const checked = flagChecked(name!, args);
  if (checked) return checked;
  if (PLAIN_READERS.has(name!)) return READ;
  return { kind: "write", reason: `"${name}" is not a known read-only command` };
}

function envCommand(args: (string | null)[]): Verdict {
  let i = 0;
  let assigns = false;
  for (; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === null) return { kind: "tier2", reason: "env runs a command whose name is computed" };
    if (arg === "-S" || arg.startsWith("--split-string")) {
      return { kind: "tier2", reason: `"env -S" splits a string into a command line` };
    }
    if (arg === "-u" || arg === "--unset" || arg === "-C" || arg === "--chdir") i++;
    else if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) assigns = true;
    else if (!arg.startsWith("-")) break;
  }
  if (i >= args.length) return READ;
  return {
    kind: "wrap",
    argv: args.slice(i),
    reason: "env runs a command",
    ...(assigns ? { tier1: "env sets variables for the command" } : {}),
  };
}

function wrapper(name: string, args: (string | null)[]): Verdict {
  const spec = WRAPPERS[name]!;
  if (name === "command" && args.some((arg) => arg === "-v" || arg === "-V")) return READ;
  let i = 0;
  let skip = spec.positional ?? 0;
  for (; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === null) break;
    if (arg === "--") {
      i++;
      break;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      if (spec.valued.includes(arg)) i++;
      continue;
    }
    if (skip-- > 0) continue;
    break;
  }
  const inner = args.slice(i);
  const privileged = name === "sudo" || name === "doas";
  if (inner.length === 0) {
    return name === "xargs" ? { kind: "tier1", reason: "xargs builds a command from its input" } : READ;
  }
  return {
    kind: "wrap",
    argv: inner,
    reason: privileged ? `${name} runs a command as another user` : `${name} runs a command`,
    ...(name === "xargs" ? { tier1: "xargs adds arguments from its input" } : {}),
    ...(privileged ? { privileged } : {}),
  };
}

function shortCluster(arg: string | null, letter: string): boolean {
  return arg !== null && /^-[A-Za-z]+$/.test(arg) && arg.includes(letter);
}

function shell(name: string, args: (string | null)[]): Verdict {
  if (args.some((arg) => shortCluster(arg, "c"))) {
    return { kind: "tier2", reason: `"${name} -c" runs a string as shell code` };
  }
  const script = args.find((arg) => arg === null || !arg.startsWith("-"));
  if (script === undefined || script === "-" || args.includes("-s")) {
    return { kind: "tier2", reason: `"${name}" without a script runs shell code from its input` };
  }
  return { kind: "write", reason: `"${name}" runs a script` };
}

function interpreter(name: string, args: (string | null)[]): Verdict {
  const flags = INLINE_CODE[name]!;
  const inline = args.some((arg) =>
    arg !== null && flags.some((flag) =>
      arg.toLowerCase() === flag || arg.startsWith(`${flag}=`) ||
      (flag.length === 2 && shortCluster(arg, flag[1]!))
    )
  );
  if (inline) return { kind: "tier2", reason: `"${name}" runs inline code` };
  const script = args.find((arg) => arg === null || !arg.startsWith("-"));
  if (script === undefined || script === "-") {
    if (args.some((arg) => arg === "--version" || arg === "-V" || arg === "-v")) return READ;
    return { kind: "tier2", reason: `"${name}" without a script runs code from its input` };
  }
  return { kind: "write", reason: `"${name}" runs a program` };
}

function deno(args: (string | null)[]): Verdict {
  const sub = args[0];
  if (sub === undefined || sub === null) {
    return { kind: "tier2", reason: `"deno" without a subcommand runs code` };
  }
  if (sub === "eval" || sub === "repl") return { kind: "tier2", reason: `"deno ${sub}" runs inline code` };
  if (sub === "--version" || sub === "-V" || sub === "info" || sub === "doc") return READ;
  return { kind: "write", reason: `"deno ${sub}" runs a program` };
}
