import { z } from "zod";
import { defineTool, type FileChange, type ToolContext, ToolError } from "../tool.ts";
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
}

export const writeFileTool = defineTool({
  name: "write_file",
  description: DESCRIPTION,
  parameters,
  readOnly: false,
  async preview(args, ctx): Promise<FileChange> {
    const plan = await planWrite(args, ctx);
    return {
      path: plan.shown,
      kind: plan.existed ? "modify" : "create",
      oldText: plan.old?.text ?? null,
      newText: args.content,
    };
  },
  async execute(args, ctx) {
    const plan = await planWrite(args, ctx);
    const bytes = new TextEncoder().encode(args.content);
    await writeChecked(ctx.workspace, plan.abs, bytes, plan.shown);
    const how = plan.existed ? "overwrote" : "created";
    return {
      output: `Wrote ${countLines(args.content)} lines (${bytes.length} bytes) to ${plan.shown} (${how})`,
      data: { kind: "diff", path: plan.shown, before: plan.old?.text ?? null, after: args.content },
    };
  },
});

async function planWrite(args: WriteArgs, ctx: ToolContext): Promise<WritePlan> {
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  let old: TextFile | null = null;
  let existed = false;
  try {
    old = await readTextFile(ctx.workspace, abs, shown);
    existed = old !== null;
  } catch (error) {
    // A binary file may be overwritten; its old content just cannot be shown.
    if (!(error instanceof ToolError && error.code === "tool.unsupported_file")) throw error;
    existed = true;
  }
  return { abs, shown, old, existed };
}
