import { z } from "zod";
import { type PlannedChange, type ToolContext, ToolError } from "../tool.ts";
import { definePlannedTool } from "../planned.ts";
import { readConfined } from "../confined_fs.ts";
import { displayPath, resolveWritePath } from "../workspace_paths.ts";
import { countLines, readTextFile, type TextFile, writeChecked } from "./_text_file.ts";

const DESCRIPTION =
  `Create a file or replace all of its content (parent directories created, atomic write). Prefer edit_file to change part of a file.`;

const parameters = z.object({
  path: z.string().describe("File path, relative to the workspace root"),
  content: z.string().describe("The complete new content of the file"),
});

type WriteArgs = z.infer<typeof parameters>;

interface WritePlan {
  abs: string;
  shown: string;
  old: TextFile | null;
  existed: boolean;
  raw: Uint8Array | null;
}

export const writeFileTool = definePlannedTool({
  name: "write_file",
  description: DESCRIPTION,
  parameters,
  async plan(args, ctx): Promise<PlannedChange> {
    const plan = await planWrite(args, ctx);
    const bytes = new TextEncoder().encode(args.content);
    return {
      change: {
        path: plan.shown,
        kind: plan.existed ? "modify" : "create",
        oldText: plan.old?.text ?? null,
        newText: args.content,
      },
      touches: [{ abs: plan.abs, shown: plan.shown, before: plan.raw, after: bytes }],
      async apply() {
        await writeChecked(ctx, plan.abs, bytes, plan.shown);
        const how = plan.existed ? "overwrote" : "created";
        return {
          output: `Wrote ${countLines(args.content)} lines (${bytes.length} bytes) to ${plan.shown} (${how})`,
          data: { kind: "diff", path: plan.shown, before: plan.old?.text ?? null, after: args.content },
        };
      },
    };
  },
});

async function planWrite(args: WriteArgs, ctx: ToolContext): Promise<WritePlan> {
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  try {
    const old = await readTextFile(ctx, abs, shown);
    return { abs, shown, old, existed: old !== null, raw: old?.raw ?? null };
  } catch (error) {
    // A binary file may be overwritten; its old content just cannot be shown.
    if (!(error instanceof ToolError && error.code === "tool.unsupported_file")) throw error;
    return { abs, shown, old: null, existed: true, raw: await readConfined(ctx, abs) };
  }
}
