/**
 * @module
 * How bash deny and ask rules reach a command however it is spelled: wrapped, nested in a shell
 * string, called by path, after global options (`git -C . push`, `npm --prefix d publish`), with
 * reordered short flags. And when a deny rule cannot be ruled out: the criterion is that a word the
 * shell computes (`$CMD push`, `git $(…)`, `xargs git` fed from input) could supply the rule's words,
 * or the line holds shell code the policy cannot read (`eval "$x"`, `sh -c "$x"`, `curl … | sh`, a line
 * that does not parse and could spell the rule's program).
 */
import type { BashJudgement } from "./bash_classify.ts";
import { gitSubcommandAt } from "./_git.ts";
import { globMatches, type Rule } from "./rules.ts";

type Argv = readonly (string | null)[];

/** A rule hits when it matches the line or any command in it, wrapped or nested. */
export function lineHit(rule: Rule, line: string, judgement: BashJudgement): boolean {
  const matcher = rule.matcher;
  if (matcher.type === "any") return true;
  if (matcher.type === "literal") return matcher.text === line;
  const canonical = canonicalRule(rule);
  return spellings(judgement).some((argv) =>
    argvMatches(rule, argv) || argvMatches(canonical, canonicalFlags(argv))
  );
}

/** Why a deny rule may match though no spelling proves it; null when it cannot. */
export function possibleHit(rule: Rule, line: string, judgement: BashJudgement): string | null {
  const matcher = rule.matcher;
  if (matcher.type === "any" || matcher.type === "literal") return null;
  if (judgement.opaque.length > 0) return `${judgement.opaque[0]}, and what that code runs is not known`;
  const program = matcher.type === "glob" ? matcher.pattern.split(" ")[0]! : matcher.words[0]!;
  if (judgement.unparsed && (/[$`]/.test(line) || spells(line.replace(/["'\\]/g, ""), program))) {
    return "the line cannot be parsed";
  }
  const computed = spellings(judgement).find((argv) => argv.includes(null) && couldMatch(rule, argv));
  if (computed === undefined) return null;
  const shown = computed.map((word) => word ?? "…").join(" ");
  return `"${shown}" has words the shell computes when it runs (shown as …)`;
}

function spells(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[\\s;&|(/])${escaped}($|[\\s;&|)])`).test(text);
}

function spellings(judgement: BashJudgement): Argv[] {
  return judgement.commands.flatMap((command) => command.effective.flatMap(variants));
}

const NPM_LIKE = new Set(["npm", "pnpm", "yarn", "npx", "bun"]);
const NPM_VALUED = new Set([
  "--prefix",
  "-C",
  "--registry",
  "--cache",
  "--userconfig",
  "--globalconfig",
  "--loglevel",
  "-w",
  "--workspace",
  "--tag",
  "--otp",
  "--access",
  "--scope",
  "--before",
  "--omit",
  "--include",
  "--dir",
  "--filter",
  "--cwd",
]);

/** The spellings a rule is compared with: as written, by base name, and without global options. */
function variants(argv: Argv): Argv[] {
  const name = argv[0];
  if (name === undefined || name === null) return [argv];
  const base = name.slice(name.lastIndexOf("/") + 1);
  const named = base === name ? argv : [base, ...argv.slice(1)];
  const out: Argv[] = base === name ? [argv] : [argv, named];
  if (base === "git") out.push([base, ...named.slice(1 + gitSubcommandAt(named.slice(1)))]);
  if (NPM_LIKE.has(base)) out.push(withoutFlags(named, false), withoutFlags(named, true));
  return out;
}

/** npm takes its options anywhere; `greedy` also drops the word after an unknown `--flag`. */
function withoutFlags(argv: Argv, greedy: boolean): Argv {
  const out: (string | null)[] = [argv[0]!];
  for (let i = 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === null || !word.startsWith("-")) {
      out.push(word);
      continue;
    }
    if (word === "--") return [...out, ...argv.slice(i + 1)];
    if (!word.includes("=") && (NPM_VALUED.has(word) || greedy && word.startsWith("--"))) i++;
  }
  return out;
}

/** A computed word (null) may stand for any number of words, empty included. */
function couldMatch(rule: Rule, argv: Argv): boolean {
  const matcher = canonicalRule(rule).matcher;
  if (matcher.type === "glob") {
    const first = argv[0];
    return first === null || first === undefined || globMatches(matcher.pattern.split(" ")[0]!, first);
  }
  if (matcher.type !== "prefix" && matcher.type !== "exact") return false;
  const words = matcher.words;
  const spelled = canonicalFlags(argv);
  const failed = new Set<number>();
  const go = (i: number, j: number): boolean => {
    const key = i * 1024 + j;
    if (failed.has(key)) return false;
    let ok: boolean;
    if (i === words.length) ok = matcher.type === "prefix" || spelled.slice(j).every((word) => word === null);
    else if (j === spelled.length) ok = false;
    else if (spelled[j] === null) ok = go(i, j + 1) || go(i + 1, j) || go(i + 1, j + 1);
    else ok = spelled[j] === words[i] && go(i + 1, j + 1);
    if (!ok) failed.add(key);
    return ok;
  };
  return go(0, 0);
}

/** `rm -r -f`, `rm -fr` and `rm -rf` are one command to a deny rule: short flags merge and sort. */
function canonicalFlags(argv: Argv): (string | null)[] {
  const out: (string | null)[] = [];
  for (const word of argv) {
    const previous = out.at(-1);
    if (
      word !== null && /^-[A-Za-z]+$/.test(word) && typeof previous === "string" &&
      /^-[A-Za-z]+$/.test(previous)
    ) {
      out[out.length - 1] = sortFlags(previous + word.slice(1));
    } else out.push(word !== null && /^-[A-Za-z]+$/.test(word) ? sortFlags(word) : word);
  }
  return out;
}

function sortFlags(cluster: string): string {
  return "-" + [...new Set(cluster.slice(1))].sort().join("");
}

function canonicalRule(rule: Rule): Rule {
  const matcher = rule.matcher;
  if (matcher.type !== "prefix" && matcher.type !== "exact") return rule;
  return { ...rule, matcher: { ...matcher, words: canonicalFlags(matcher.words) as string[] } };
}

export function argvMatches(rule: Rule, argv: Argv): boolean {
  const matcher = rule.matcher;
  switch (matcher.type) {
    case "any":
      return true;
    case "prefix":
      return matcher.words.length <= argv.length && matcher.words.every((word, i) => argv[i] === word);
    case "exact":
      return matcher.words.length === argv.length && matcher.words.every((word, i) => argv[i] === word);
    case "glob":
      return argv.every((word) => word !== null) && globMatches(matcher.pattern, argv.join(" "));
  }
  return false;
}

/**
 * A path rule (`Edit(secrets/**)`) against the files a line writes: the file itself, a directory that
 * holds files the rule names (`rm -r secrets`), or a shell pattern that could expand to one.
 */
export function pathHit(rule: Rule, path: string): boolean {
  const matcher = rule.matcher;
  if (matcher.type === "any") return true;
  if (matcher.type !== "glob") return false;
  if (globMatches(matcher.pattern, path) || path === ".") return true;
  const fixed = literalPrefix(matcher.pattern);
  if (fixed.startsWith(`${path.replace(/\/$/, "")}/`)) return true;
  if (!/[*?[]/.test(path)) return false;
  const pattern = literalPrefix(path);
  return fixed.startsWith(pattern) || pattern.startsWith(fixed);
}

function literalPrefix(glob: string): string {
  const at = glob.search(/[*?[{]/);
  return at === -1 ? glob : glob.slice(0, at);
}
