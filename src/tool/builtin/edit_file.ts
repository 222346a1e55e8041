import { z } from "zod";
import { unifiedDiff } from "../../lib/diff/unified.ts";
import { type PlannedChange, type ToolContext, ToolError } from "../tool.ts";
import { definePlannedTool } from "../planned.ts";
import { displayPath, resolveWritePath } from "../workspace_paths.ts";
import { applyEdits, type EditOutcome, gutterNote, planChange, touchOf } from "./_edit_core.ts";
import { countLines, readTextFile, writeChecked } from "./_text_file.ts";

const DESCRIPTION =
  `Replace old_string with new_string in a file. old_string must match exactly, whitespace included, and occur once unless replace_all; add surrounding lines to make it unique. Line endings are kept. An empty old_string creates a missing file. Read the file first.`;

const parameters = z.object({
  path: z.string().describe("File path, relative to the workspace root"),
  old_string: z.string().describe("Exact text to replace (empty only to create a new file)"),
  new_string: z.string().describe("Replacement text"),
  replace_all: z.boolean().optional().describe(
    "Replace every occurrence (default false)",
  ),
});

type EditArgs = z.infer<typeof parameters>;

interface EditPlan extends EditOutcome {
  abs: string;
  shown: string;
}

export const editFileTool = definePlannedTool({
  name: "edit_file",
  description: DESCRIPTION,
  parameters,
  async plan(args, ctx): Promise<PlannedChange> {
    const plan = await planEdit(args, ctx);
    return {
      change: planChange(plan),
      touches: [touchOf(plan)],
      async apply() {
        await writeChecked(ctx, plan.abs, plan.bytes, plan.shown);
        const data = { kind: "diff" as const, path: plan.shown, before: plan.oldText, after: plan.newText };
        if (plan.created) {
          return { output: `Created ${plan.shown} (${countLines(plan.newText)} lines)`, data };
        }
        const diff = unifiedDiff(plan.before, plan.after);
        const noun = plan.replacements === 1 ? "replacement" : "replacements";
        return {
          output: `Edited ${plan.shown}: ${plan.replacements} ${noun}${gutterNote(plan)}\n${diff}`,
          data,
        };
      },
    };
  },
});

async function planEdit(args: EditArgs, ctx: ToolContext): Promise<EditPlan> {
  if (args.old_string === args.new_string) {
    throw new ToolError("tool.edit_noop", "Cannot edit: old_string and new_string are identical");
  }
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  const file = await readTextFile(ctx, abs, shown);
  const outcome = applyEdits(file, [args], { shown, label: () => `edit "${shown}"` });
  return { abs, shown, ...outcome };
}
