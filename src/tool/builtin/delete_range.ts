import { z } from "zod";
import { type PlannedChange, type ToolContext, ToolError } from "../tool.ts";
import { definePlannedTool } from "../planned.ts";
import { displayPath, resolveWritePath } from "../workspace_paths.ts";
import { lineList } from "./_edit_core.ts";
import { encodeText, readTextFile } from "./_text_file.ts";
import { plannedRewrite, type Rewrite, rewriteDiff } from "./_rewrite.ts";

const DESCRIPTION =
  `Delete the lines from the one containing start_anchor through the one containing end_anchor (each anchor must be on exactly one line). inclusive=false keeps the anchor lines.`;

const parameters = z.object({
  path: z.string().describe("File path, relative to the workspace root"),
  start_anchor: z.string().describe("Text found on exactly one line: the first line of the block"),
  end_anchor: z.string().describe("Text found on exactly one line: the last line of the block"),
  inclusive: z.boolean().optional().describe(
    "Delete the anchor lines too (default true); false deletes only the lines between them",
  ),
});

type DeleteRangeArgs = z.infer<typeof parameters>;

interface RangePlan extends Rewrite {
  /** 1-based, inclusive. */
  first: number;
  last: number;
}

export const deleteRangeTool = definePlannedTool({
  name: "delete_range",
  description: DESCRIPTION,
  parameters,
  async plan(args, ctx): Promise<PlannedChange> {
    const plan = await planDelete(args, ctx);
    return plannedRewrite(ctx, plan, () => {
      const count = plan.last - plan.first + 1;
      const span = count === 1 ? `line ${plan.first}` : `lines ${plan.first}-${plan.last}`;
      return `Deleted ${span} (${count} ${count === 1 ? "line" : "lines"}) from ${plan.shown}\n${
        rewriteDiff(plan)
      }`;
    });
  },
});

async function planDelete(args: DeleteRangeArgs, ctx: ToolContext): Promise<RangePlan> {
  checkAnchor(args.start_anchor, "start_anchor", args.path);
  checkAnchor(args.end_anchor, "end_anchor", args.path);
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  const file = await readTextFile(ctx, abs, shown);
  if (file === null) throw new ToolError("tool.not_found", `Cannot delete from "${shown}": no such file`);
  const lines = splitLines(file.text);
  const start = findAnchor(lines, args.start_anchor, { name: "start_anchor", shown });
  const end = findAnchor(lines, args.end_anchor, { name: "end_anchor", shown });
  if (end <= start) {
    throw new ToolError(
      "tool.invalid_range",
      `Cannot delete from "${shown}": end_anchor is on line ${end + 1}, which does not come after ` +
        `start_anchor on line ${start + 1}`,
    );
  }
  const inclusive = args.inclusive ?? true;
  const from = inclusive ? start : start + 1;
  const to = inclusive ? end : end - 1;
  if (to < from) {
    throw new ToolError(
      "tool.edit_noop",
      `Cannot delete from "${shown}": no lines lie between line ${start + 1} and line ${end + 1}; ` +
        "set inclusive to true to delete the anchor lines",
    );
  }
  const newText = joinKept(lines, from, to, file.text.endsWith("\n"));
  const bytes = encodeText(newText, file.encoding, file.bom);
  return { abs, shown, oldText: file.text, newText, bytes, raw: file.raw, first: from + 1, last: to + 1 };
}

function checkAnchor(anchor: string, name: string, path: string): void {
  if (anchor === "" || anchor.includes("\n")) {
    throw new ToolError(
      "tool.invalid_args",
      `Cannot delete from "${path}": ${name} must be non-empty text from a single line`,
    );
  }
}

/** Lines with their own terminators, so CRLF, LF and a missing final newline all survive a rejoin. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function findAnchor(
  lines: readonly string[],
  anchor: string,
  options: { name: string; shown: string },
): number {
  const hits: number[] = [];
  lines.forEach((line, index) => {
    if (line.replace(/\r?\n$/, "").includes(anchor)) hits.push(index);
  });
  if (hits.length === 1) return hits[0]!;
  if (hits.length === 0) {
    throw new ToolError(
      "tool.edit_no_match",
      `Cannot delete from "${options.shown}": ${options.name} "${anchor}" is on no line; read the file ` +
        "again and copy text from the line exactly",
    );
  }
  throw new ToolError(
    "tool.edit_ambiguous",
    `Cannot delete from "${options.shown}": ${options.name} "${anchor}" is on ${hits.length} lines ` +
      `(lines ${lineList(hits.map((at) => at + 1))}); give text that occurs on exactly one line`,
  );
}

function joinKept(lines: readonly string[], from: number, to: number, finalNewline: boolean): string {
  const kept = [...lines.slice(0, from), ...lines.slice(to + 1)];
  const removedLast = to === lines.length - 1;
  if (removedLast && !finalNewline && kept.length > 0) {
    kept[kept.length - 1] = kept.at(-1)!.replace(/\r?\n$/, "");
  }
  return kept.join("");
}
