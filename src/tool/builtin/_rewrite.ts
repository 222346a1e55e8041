/**
 * @module
 * The planned change of a tool that rewrites one existing text file in place (delete_range,
 * delete_symbol, notebook_edit): what the prompt previews, the file the stale check guards, and the
 * checked write that applies it.
 */
import { unifiedDiff } from "../../lib/diff/unified.ts";
import type { PlannedChange, ToolContext } from "../tool.ts";
import { writeChecked } from "./_text_file.ts";

export interface Rewrite {
  abs: string;
  shown: string;
  /** The file's text as read, and the text written in its place. */
  oldText: string;
  newText: string;
  /** What goes to disk, and the file's bytes as read. */
  bytes: Uint8Array;
  raw: Uint8Array;
}

/** Previews and applies a rewrite; `output` words the result for the model once the file is written. */
export function plannedRewrite(ctx: ToolContext, plan: Rewrite, output: () => string): PlannedChange {
  return {
    change: { path: plan.shown, kind: "modify", oldText: plan.oldText, newText: plan.newText },
    touches: [{ abs: plan.abs, shown: plan.shown, before: plan.raw, after: plan.bytes }],
    async apply() {
      await writeChecked(ctx, plan.abs, plan.bytes, plan.shown);
      return {
        output: output(),
        data: { kind: "diff", path: plan.shown, before: plan.oldText, after: plan.newText },
      };
    },
  };
}

/** The unified diff of a rewrite, with CRLF line endings shown as LF. */
export function rewriteDiff(plan: Rewrite): string {
  return unifiedDiff(plan.oldText.replaceAll("\r\n", "\n"), plan.newText.replaceAll("\r\n", "\n"));
}
