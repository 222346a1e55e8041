/**
 * @module
 * A compact unified diff for tool results and previews: hunk headers carry the line numbers, no file
 * headers, and a cap on the number of lines so a large rewrite cannot flood the model's context.
 */
import { structuredPatch } from "diff";

export interface UnifiedDiffOptions {
  /** Unchanged lines around each change (default 3). */
  context?: number;
  /** Diff lines kept before the rest is summarised (default 200). */
  maxLines?: number;
}

export function unifiedDiff(oldText: string, newText: string, options: UnifiedDiffOptions = {}): string {
  const patch = structuredPatch("a", "b", oldText, newText, undefined, undefined, {
    context: options.context ?? 3,
  });
  const maxLines = options.maxLines ?? 200;
  const out: string[] = [];
  let total = 0;
  for (const hunk of patch.hunks) {
    const lines = [
      `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
      ...hunk.lines,
    ];
    for (const line of lines) {
      total++;
      if (out.length < maxLines) out.push(line);
    }
  }
  if (total > out.length) out.push(`… (${total - out.length} more diff lines)`);
  return out.join("\n");
}
