import { z } from "zod";
import { unifiedDiff } from "../../lib/diff/unified.ts";
import { type PlannedChange, type ToolContext, type ToolData, ToolError } from "../tool.ts";
import { definePlannedTool } from "../planned.ts";
import { displayPath, resolveWritePath } from "../workspace_paths.ts";
import { applyEdits, type EditOutcome, gutterNote, planChange, touchOf } from "./_edit_core.ts";
import { countLines, readTextFile, writeChecked } from "./_text_file.ts";

const DESCRIPTION =
  `Several edit_file replacements in one file, applied in order, all or nothing. Prefer it to repeated edit_file calls on one file.`;

const edit = z.object({
  old_string: z.string().describe("Exact text, as it stands after the earlier edits"),
  new_string: z.string().describe("Replacement text"),
  replace_all: z.boolean().optional().describe(
    "Replace every occurrence (default false)",
  ),
});

const parameters = z.object({
  path: z.string().describe("File path, relative to the workspace root"),
  edits: z.array(edit).min(1).describe("Replacements, applied in order"),
});

type MultiEditArgs = z.infer<typeof parameters>;

interface MultiEditPlan extends EditOutcome {
  abs: string;
  shown: string;
}

export const multiEditTool = definePlannedTool({
  name: "multi_edit",
  description: DESCRIPTION,
  parameters,
  async plan(args, ctx): Promise<PlannedChange> {
    const plan = await planMultiEdit(args, ctx);
    return {
      change: planChange(plan),
      touches: [touchOf(plan)],
      async apply() {
        await writeChecked(ctx, plan.abs, plan.bytes, plan.shown);
        const count = `${args.edits.length} ${args.edits.length === 1 ? "edit" : "edits"}`;
        if (plan.created) {
          return {
            output: `Created ${plan.shown} with ${count} (${countLines(plan.newText)} lines)`,
            data: diffData(plan),
          };
        }
        const noun = plan.replacements === 1 ? "replacement" : "replacements";
        const diff = unifiedDiff(plan.before, plan.after);
        return {
          output: `Edited ${plan.shown}: ${count}, ${plan.replacements} ${noun}${gutterNote(plan)}\n${diff}`,
          data: diffData(plan),
        };
      },
    };
  },
});

async function planMultiEdit(args: MultiEditArgs, ctx: ToolContext): Promise<MultiEditPlan> {
  if (args.edits.length === 0) {
    throw new ToolError(
      "tool.invalid_args",
      `Cannot edit "${args.path}": edits is empty; give at least one edit`,
    );
  }
  const label = (index: number) => `apply edits[${index}] to "${args.path}"`;
  args.edits.forEach((edit, index) => {
    if (edit.old_string === edit.new_string) {
      throw new ToolError(
        "tool.edit_noop",
        `Cannot ${label(index)}: old_string and new_string are identical`,
      );
    }
  });
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  const file = await readTextFile(ctx, abs, shown);
  const outcome = applyEdits(file, args.edits, {
    shown,
    label: (index) => `apply edits[${index}] to "${shown}"`,
  });
  return { abs, shown, ...outcome };
}

function diffData(plan: { shown: string; oldText: string | null; newText: string }): ToolData {
  return { kind: "diff", path: plan.shown, before: plan.oldText, after: plan.newText };
}
