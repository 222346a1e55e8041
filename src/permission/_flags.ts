/**
 * @module
 * Flag allow-lists for read-only programs, written as a compact spec: `-abc` short flags, `-n=` a short
 * flag with a value, `-M?` one whose value can only be attached, `--long` (may carry `=value`), `--long=`
 * a long flag with a value, `#` accepts `-NUM`, `*` accepts any argument. A `!` prefix marks a flag
 * that names a program to run (tier 2), a `>` prefix one that writes files. Any other flag makes the
 * program a writer.
 */
import { READ, tier2, type Verdict, writes } from "./_verdict.ts";

type Effect = "read" | "program" | "write";

interface FlagEntry {
  /** How many values follow the flag (`--arg NAME VALUE` takes two: `--arg==`). */
  values: number;
  /** `-M?`: an optional value that can only be attached (`-M50%`), never the next argument. */
  attached?: boolean;
  effect: Effect;
}

export interface FlagSpec {
  short: Map<string, FlagEntry>;
  long: Map<string, FlagEntry>;
  digits: boolean;
  free: boolean;
}

const compiled = new Map<string, FlagSpec>();

export function flagSpec(text: string): FlagSpec {
  let spec = compiled.get(text);
  if (spec) return spec;
  spec = { short: new Map(), long: new Map(), digits: false, free: false };
  for (let token of text.split(/\s+/).filter(Boolean)) {
    if (token === "#") spec.digits = true;
    else if (token === "*") spec.free = true;
    else {
      const effect: Effect = token[0] === "!" ? "program" : token[0] === ">" ? "write" : "read";
      if (effect !== "read") token = token.slice(1);
      const attached = token.endsWith("?");
      const bare = token.replace(/=+$|\?$/, "");
      const values = attached ? 0 : token.length - bare.length;
      const entry = { values, effect, attached };
      if (bare.startsWith("--")) spec.long.set(bare, entry);
      else for (const letter of bare.slice(1)) spec.short.set(letter, entry);
    }
  }
  compiled.set(text, spec);
  return spec;
}

export interface FlagOptions {
  /** Judges an argument that is not a flag (or null to accept it). */
  positional?: (arg: string) => Verdict | null;
}

/** Judges `args` against the spec; a computed word may be any flag, so it counts as the worst one. */
export function checkFlags(
  name: string,
  args: readonly (string | null)[],
  spec: FlagSpec,
  options: FlagOptions = {},
): Verdict {
  if (spec.free) return READ;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? null;
    if (arg === null) {
      if (hasEffect(spec, "program")) {
        return tier2(
          `a computed argument of "${name}" could be an option that runs a program`,
          "program-option",
        );
      }
      continue;
    }
    if (arg === "--") return positionals(args.slice(i + 1), options);
    if (arg === "-" || !arg.startsWith("-")) {
      const verdict = options.positional?.(arg) ?? null;
      if (verdict) return verdict;
      continue;
    }
    const step = arg.startsWith("--") ? longFlag(name, arg, spec) : shortFlags(name, arg, spec);
    if ("kind" in step) return step;
    i += step.consumes;
  }
  return READ;
}

function positionals(args: readonly (string | null)[], options: FlagOptions): Verdict {
  for (const arg of args) {
    const verdict = arg === null ? null : options.positional?.(arg) ?? null;
    if (verdict) return verdict;
  }
  return READ;
}

function hasEffect(spec: FlagSpec, effect: Effect): boolean {
  return [...spec.short.values(), ...spec.long.values()].some((entry) => entry.effect === effect);
}

function longFlag(name: string, arg: string, spec: FlagSpec): Verdict | { consumes: number } {
  const cut = arg.indexOf("=");
  const flag = cut === -1 ? arg : arg.slice(0, cut);
  const entry = spec.long.get(flag);
  if (entry) {
    return judged(name, flag, entry) ?? { consumes: Math.max(0, entry.values - (cut === -1 ? 0 : 1)) };
  }
  // GNU tools accept any unambiguous prefix of a long option (`--compress-prog=sh`).
  for (const [known, candidate] of spec.long) {
    if (candidate.effect !== "read" && flag.length > 3 && known.startsWith(flag)) {
      return judged(name, flag, candidate)!;
    }
  }
  return writes(`"${name} ${flag}" is not a flag the policy knows to be read-only`);
}

function shortFlags(name: string, arg: string, spec: FlagSpec): Verdict | { consumes: number } {
  if (spec.digits && /^-\d+$/.test(arg)) return { consumes: 0 };
  for (let k = 1; k < arg.length; k++) {
    const letter = arg[k]!;
    const entry = spec.short.get(letter);
    if (!entry) return writes(`"${name} -${letter}" is not a flag the policy knows to be read-only`);
    const verdict = judged(name, `-${letter}`, entry);
    if (verdict) return verdict;
    if (entry.attached) return { consumes: 0 };
    if (entry.values > 0) return { consumes: k === arg.length - 1 ? entry.values : entry.values - 1 };
  }
  return { consumes: 0 };
}

function judged(name: string, flag: string, entry: FlagEntry): Verdict | null {
  if (entry.effect === "program") return tier2(`"${name} ${flag}" names a program to run`, "program-option");
  if (entry.effect === "write") return writes(`"${name} ${flag}" writes files`);
  return null;
}
