/**
 * @module
 * Approve what runs: a previewing writer computes its change once, the card shows it, and the write
 * applies those same bytes only while every file it replaces still holds what the plan read.
 */
import { type FileScope, readConfined } from "./confined_fs.ts";
import {
  defineTool,
  type FileChange,
  type FileTouch,
  type PlannedChange,
  type ToolContext,
  ToolError,
  type ToolResult,
  type ToolSpec,
} from "./tool.ts";
import type { z } from "zod";

export interface PlannedToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  parameters: S;
  truncationHint?: string;
  plan: (args: z.infer<S>, ctx: ToolContext) => Promise<PlannedChange>;
}

/** A writer whose `preview` and `execute` both come from its single `plan`. */
export function definePlannedTool<S extends z.ZodType>(spec: PlannedToolSpec<S>): ToolSpec<z.infer<S>> {
  return defineTool({
    ...spec,
    readOnly: false,
    async preview(args, ctx): Promise<FileChange> {
      return (await spec.plan(args, ctx)).change;
    },
    async execute(args, ctx): Promise<ToolResult> {
      return await applyPlanned(await spec.plan(args, ctx), ctx);
    },
  });
}

/** Refuses when a file changed since the plan read it; tells the checkpoints; then writes. */
export async function applyPlanned(planned: PlannedChange, ctx: ToolContext): Promise<ToolResult> {
  for (const touch of planned.touches) await assertUnchanged(ctx, touch);
  await ctx.writes?.beforeWrite(planned.touches);
  return await planned.apply();
}

async function assertUnchanged(ws: FileScope, touch: FileTouch): Promise<void> {
  let now: Uint8Array | null;
  try {
    now = await readConfined(touch.onDisk ? withoutEditor(ws) : ws, touch.abs);
  } catch (error) {
    // A path that was absent and still cannot be read (a parent is a file): the write says why.
    if (touch.before === null) return;
    throw changed(touch.shown, error);
  }
  if (!sameBytes(now, touch.before)) throw changed(touch.shown);
}

/** The disk's view of the files, without the editor's buffers. */
function withoutEditor(scope: FileScope): FileScope {
  return { workspace: scope.workspace, ...scope.files ? { files: scope.files } : {} };
}

function changed(shown: string, cause?: unknown): ToolError {
  const error = new ToolError(
    "tool.file_changed",
    `Cannot write "${shown}": it changed on disk after this change was planned (and shown for ` +
      "approval); nothing was written, read the file again and redo the change",
  );
  if (cause !== undefined) error.cause = cause;
  return error;
}

export function sameBytes(a: Uint8Array | null, b: Uint8Array | null): boolean {
  if (a === null || b === null) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
