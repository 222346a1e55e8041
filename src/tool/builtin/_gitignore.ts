/**
 * @module
 * The common subset of .gitignore: comments, `!` negation, trailing-slash directory rules, anchoring
 * by a leading or inner slash, `*`, `?`, `**`, `[...]`. Later rules and deeper files win.
 */
import { relative, sep } from "node:path";
import { readRegularFile } from "../../lib/regular_file.ts";
import { type CompiledGlob, compileGlob, globMatches } from "./_glob_match.ts";

export interface IgnoreRule {
  /** Directory holding the .gitignore; patterns are relative to it. */
  base: string;
  glob: CompiledGlob;
  negate: boolean;
  dirOnly: boolean;
}

export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
    if (line === "" || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    const dirOnly = line.endsWith("/");
    try {
      rules.push({ base, glob: compileGlob(line), negate, dirOnly });
    } catch {
      // git skips patterns it cannot parse; so do we.
    }
  }
  return rules;
}

/** Last matching rule wins; `rules` must be ordered from the outermost .gitignore inwards. */
export function isIgnored(rules: readonly IgnoreRule[], abs: string, isDir: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.dirOnly && !isDir) continue;
    const rel = relative(rule.base, abs);
    if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`)) continue;
    if (globMatches(rule.glob, sep === "/" ? rel : rel.split(sep).join("/"))) ignored = !rule.negate;
  }
  return ignored;
}

/** A `.gitignore` larger than this, or not a regular file (a FIFO would block the walk), is not read. */
const MAX_GITIGNORE_BYTES = 4 * 1024 * 1024;

export async function readGitignore(dir: string): Promise<IgnoreRule[]> {
  try {
    const read = await readRegularFile(`${dir}${sep}.gitignore`, MAX_GITIGNORE_BYTES);
    return read.kind === "bytes" ? parseGitignore(new TextDecoder().decode(read.bytes), dir) : [];
  } catch {
    return [];
  }
}
