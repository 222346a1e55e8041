/**
 * @module
 * Per-program checks for find, sed and awk: which arguments keep them read-only, and which make them
 * write files or run other commands.
 */
import { checkFlags, flagSpec } from "./_flags.ts";
import { READ, tier2, type Verdict, writes } from "./_verdict.ts";

const FIND_TESTS = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
  "-regex",
  "-iregex",
  "-lname",
  "-ilname",
  "-type",
  "-xtype",
  "-size",
  "-perm",
  "-user",
  "-group",
  "-uid",
  "-gid",
  "-newer",
  "-anewer",
  "-cnewer",
  "-samefile",
  "-inum",
  "-links",
  "-amin",
  "-atime",
  "-cmin",
  "-ctime",
  "-mmin",
  "-mtime",
  "-used",
  "-maxdepth",
  "-mindepth",
  "-printf",
  "-fstype",
  "-regextype",
  "-context",
  "-files0-from",
]);
const FIND_FLAGS = new Set([
  "-print",
  "-print0",
  "-ls",
  "-prune",
  "-empty",
  "-o",
  "-a",
  "-or",
  "-and",
  "-not",
  "!",
  "(",
  ")",
  ",",
  "-L",
  "-H",
  "-P",
  "-follow",
  "-xdev",
  "-mount",
  "-depth",
  "-d",
  "-readable",
  "-writable",
  "-executable",
  "-true",
  "-false",
  "-quit",
  "-nouser",
  "-nogroup",
  "-daystart",
  "-noleaf",
  "-ignore_readdir_race",
  "-noignore_readdir_race",
  "-nowarn",
  "-warn",
  "-O0",
  "-O1",
  "-O2",
  "-O3",
]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

export function find(args: readonly (string | null)[]): Verdict {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg !== null && FIND_EXEC.has(arg)) {
      const end = args.findIndex((item, index) => index > i && (item === ";" || item === "+"));
      const inner = args.slice(i + 1, end === -1 ? undefined : end);
      if (inner.length === 0) return tier2(`"find ${arg}" has no command`, "nested-execution");
      return {
        kind: "wrap",
        // The file names find passes come from the file system, which the repository controls.
        argv: inner.map((word) => word === "{}" ? null : word),
        reason: `"find ${arg}" runs a command on each file`,
        scheduling: false,
      };
    }
    if (arg === "-delete" || arg?.startsWith("-fprint") || arg === "-fls") {
      return writes(`"find ${arg}" changes files`);
    }
    if (arg === null || !arg.startsWith("-") && !FIND_FLAGS.has(arg)) continue;
    if (FIND_TESTS.has(arg) || /^-newer[amcBt][amcBt]$/.test(arg)) i++;
    else if (!FIND_FLAGS.has(arg) && !/^-D$/.test(arg)) {
      return writes(`"find ${arg}" is not a test the policy knows to be read-only`);
    } else if (arg === "-D") i++;
  }
  return READ;
}

const SED_FLAGS = "-nErsuz -l= --quiet --silent --regexp-extended --posix --debug --sandbox --null-data " +
  "--separate --unbuffered --line-length= --follow-symlinks >-i? >--in-place >-f= >--file=";
const SED_SAFE_REST = /^[\d\s,$;!{}pdqlnNP=gGhHxD~+]*$/;

export function sed(args: readonly (string | null)[]): Verdict {
  const scripts: (string | null)[] = [];
  const files: (string | null)[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === "-e" || arg === "--expression") scripts.push(args[++i] ?? null);
    else if (arg?.startsWith("--expression=")) scripts.push(arg.slice(13));
    else if (arg === null || !arg.startsWith("-") || arg === "-") {
      if (scripts.length === 0 && !args.slice(0, i).some(isScriptFlag)) scripts.push(arg);
      else files.push(arg);
    } else if (arg === "-l" || arg === "--line-length") i++;
  }
  const flags = args.filter((arg) => arg === null || arg.startsWith("-"));
  const verdict = checkFlags(
    "sed",
    flags.filter((arg) => arg !== "-e" && arg !== "--expression"),
    flagSpec(SED_FLAGS),
  );
  if (
    verdict.kind === "write" && args.some((arg) => arg?.startsWith("-i") || arg?.startsWith("--in-place"))
  ) {
    return { ...verdict, reason: `"sed -i" edits files in place`, paths: files };
  }
  if (verdict.kind !== "read") return verdict;
  const safe = scripts.every((script) => script !== null && SED_SAFE_REST.test(stripSed(script)));
  return safe ? READ : writes("the sed script may write files or run commands");
}

function isScriptFlag(arg: string | null): boolean {
  return arg === "-e" || arg === "--expression" || arg === "-f" || arg === "--file" ||
    (arg?.startsWith("--expression=") ?? false) || (arg?.startsWith("--file=") ?? false);
}

function stripSed(script: string): string {
  return script
    .replace(/s(.)(?:\\.|(?!\1).)*\1(?:\\.|(?!\1).)*\1[gpiImM0-9]*/g, ";")
    .replace(/\/(?:\\.|[^/])*\//g, "");
}

const AWK_FLAGS = "-bcCgMNOPrStV -F= -v= --field-separator= --assign= --sandbox --characters-as-bytes " +
  "--traditional --posix --re-interval --optimize --bignum --non-decimal-data --use-lc-numeric --lint " +
  ">-f= >--file= >-E= >--exec= >-i= >--include= >-d? >--dump-variables >-o? >--pretty-print >-p? " +
  ">--profile !-l= !--load=";

export function awk(args: readonly (string | null)[]): Verdict {
  const valued = new Set(["-F", "-v", "--field-separator", "--assign"]);
  let program: string | null | undefined;
  let at = args.length;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg !== null && valued.has(arg)) i++;
    else if (arg === null || !arg.startsWith("-") || arg === "--") {
      at = arg === "--" ? i + 1 : i;
      program = args[at];
      break;
    }
  }
  const verdict = checkFlags("awk", args.slice(0, at), flagSpec(AWK_FLAGS));
  if (verdict.kind !== "read" || program === undefined) return verdict;
  if (program === null || /system|getline|\||>|\bprintf?\s*[^;]*>/.test(program)) {
    return tier2("the awk program can run commands or write files", "dynamic-code");
  }
  return READ;
}
