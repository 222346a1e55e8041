/**
 * @module
 * How many lines a change adds and removes, as `git diff --stat` counts them.
 */
import { structuredPatch } from "diff";

export interface DiffStat {
  added: number;
  removed: number;
}

export function diffStat(oldText: string, newText: string): DiffStat {
  const stat = { added: 0, removed: 0 };
  const patch = structuredPatch("a", "b", oldText, newText, undefined, undefined, { context: 0 });
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line[0] === "+") stat.added++;
      else if (line[0] === "-") stat.removed++;
    }
  }
  return stat;
}
