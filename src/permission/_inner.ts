/**
 * @module
 * The literal shell strings a command may run (`sh -c '…'`, `eval '…'`, `env -S '…'`), found anywhere
 * in its words so that wrapped ones (`sudo bash -c '…'`, `xargs sh -c '…'`) are parsed too. The parser
 * parses each one ahead, so the classifier can judge the commands inside with the same rules.
 */
import { judgeProgram, SHELLS } from "./_commands.ts";

const RUNNERS = new Set([...SHELLS, "eval", "env"]);

export function shellStrings(argv: readonly (string | null)[]): string[] {
  const found: string[] = [];
  argv.forEach((word, i) => {
    const base = word?.slice(word.lastIndexOf("/") + 1);
    if (base === undefined || !RUNNERS.has(base)) return;
    const verdict = judgeProgram([base, ...argv.slice(i + 1)]);
    if ("script" in verdict && typeof verdict.script === "string") found.push(verdict.script);
  });
  return found;
}
