/**
 * @module
 * Diff lines with their old and new line numbers, for a coloured side gutter in the TUI.
 */
import { structuredPatch } from "diff";

export type NumberedKind = "context" | "add" | "remove" | "hunk";

export interface NumberedLine {
  kind: NumberedKind;
  oldLine: number | null;
  newLine: number | null;
  text: string;
}

export function numberedDiff(oldText: string, newText: string, context = 3): NumberedLine[] {
  const patch = structuredPatch("a", "b", oldText, newText, undefined, undefined, { context });
  const out: NumberedLine[] = [];
  for (const hunk of patch.hunks) {
    out.push({
      kind: "hunk",
      oldLine: null,
      newLine: null,
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    });
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === "\\") continue;
      if (mark === "+") out.push({ kind: "add", oldLine: null, newLine: newLine++, text });
      else if (mark === "-") out.push({ kind: "remove", oldLine: oldLine++, newLine: null, text });
      else out.push({ kind: "context", oldLine: oldLine++, newLine: newLine++, text });
    }
  }
  return out;
}
