import { basename, dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import { type FileTouch, type PlannedChange, type ToolContext, ToolError, type Workspace } from "../tool.ts";
import { definePlannedTool } from "../planned.ts";
import {
  assertStillInside,
  assertWritable,
  displayPath,
  isInside,
  lstatOrNull,
  resolveInsideRoots,
  resolveWritePath,
} from "../workspace_paths.ts";
import { ANCHORED, moveConfined, readConfined } from "../confined_fs.ts";
import { movePath } from "./_move_path.ts";
import { readTextFile } from "./_text_file.ts";

const DESCRIPTION =
  `Move or rename a file or directory inside the writable roots, creating missing parent directories.`;

const parameters = z.object({
  source_path: z.string().describe("The file or directory to move"),
  destination_path: z.string().describe("Its new path, including the new name"),
  overwrite: z.boolean().optional().describe("Replace an existing destination file (default false)"),
});

type MoveArgs = z.infer<typeof parameters>;

interface MovePlan {
  source: string;
  destination: string;
  shownSource: string;
  shownDestination: string;
  replaces: boolean;
  /** The source's text when it is a text file, for the preview. */
  sourceText: string | null;
  replacedText: string | null;
  /** The files the move replaces, with their bytes (a directory or link moves untracked). */
  touches: FileTouch[];
}

export const moveFileTool = definePlannedTool({
  name: "move_file",
  description: DESCRIPTION,
  parameters,
  // A FileChange has one path, so the preview shows the destination: a "create" holding the moved
  // text (or "modify" when it replaces a file). Directories and binaries show no text. The source's
  // removal is implied by the move and spelled out in the result.
  async plan(args, ctx): Promise<PlannedChange> {
    // A move renames what is on disk, so it reads the disk, not the editor's buffers.
    const { editor: _editor, ...disk } = ctx;
    const plan = await planMove(args, disk);
    return {
      change: {
        path: plan.shownDestination,
        kind: plan.replaces ? "modify" : "create",
        oldText: plan.replacedText,
        newText: plan.sourceText,
      },
      touches: plan.touches,
      apply: () => applyMove(plan, ctx),
    };
  },
});

async function applyMove(plan: MovePlan, ctx: ToolContext) {
  const ws = ctx.workspace;
  let copied = false;
  try {
    if (ANCHORED) await moveConfined(ctx, plan.source, plan.destination, { overwrite: plan.replaces });
    else copied = await moveByPath(ws, plan);
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied) {
      throw new ToolError(
        "tool.permission_denied",
        `Cannot move "${plan.shownSource}" to "${plan.shownDestination}": permission denied`,
      );
    }
    throw error;
  }
  const notes = [
    plan.replaces ? " (replaced the existing file)" : "",
    copied ? " (copied across filesystems)" : "",
  ];
  return {
    output: `Moved ${plan.shownSource} to ${plan.shownDestination}${notes.join("")}`,
    data: { kind: "move" as const, from: plan.shownSource, to: plan.shownDestination },
  };
}

async function planMove(args: MoveArgs, ctx: ToolContext): Promise<MovePlan> {
  const ws = ctx.workspace;
  const source = await sourceEntry(ws, args.source_path);
  const destination = await resolveWritePath(ws, args.destination_path);
  const shownSource = displayPath(ws, source);
  const shownDestination = displayPath(ws, destination);
  const what = `Cannot move "${shownSource}" to "${shownDestination}"`;
  const info = await lstatOrNull(source);
  if (info === null) throw new ToolError("tool.not_found", `${what}: the source does not exist`);
  if ([ws.root, ...ws.extraWritable].includes(source)) {
    throw new ToolError("tool.path_invalid", `${what}: the source is a workspace root`);
  }
  if (source === destination) throw new ToolError("tool.invalid_args", `${what}: the paths are the same`);
  if (info.isDirectory && isInside(destination, source)) {
    throw new ToolError("tool.path_invalid", `${what}: a directory cannot move into itself`);
  }
  const existing = await lstatOrNull(destination);
  if (existing?.isDirectory) {
    throw new ToolError(
      "tool.already_exists",
      `${what}: the destination is an existing directory; give the full new path including the name`,
    );
  }
  if (existing !== null && !args.overwrite) {
    throw new ToolError(
      "tool.already_exists",
      `${what}: the destination already exists; set overwrite to true to replace it`,
    );
  }
  if (existing !== null && info.isDirectory) {
    throw new ToolError("tool.path_invalid", `${what}: a directory cannot replace a file`);
  }
  const moved = info.isFile ? await readConfined(ctx, source) : null;
  const replaced = existing?.isFile ? await readConfined(ctx, destination) : null;
  const untracked = moved === null || (existing !== null && !existing.isFile);
  const touches: FileTouch[] = untracked ? [] : [
    { abs: source, shown: shownSource, before: moved, after: null, onDisk: true },
    { abs: destination, shown: shownDestination, before: replaced, after: moved, onDisk: true },
  ];
  return {
    source,
    destination,
    shownSource,
    shownDestination,
    replaces: existing !== null,
    sourceText: info.isDirectory ? null : await textOrNull(ctx, source, shownSource),
    replacedText: existing === null ? null : await textOrNull(ctx, destination, shownDestination),
    touches,
  };
}

/**
 * A symlink moves as itself, not as its target (like mv); its target must still resolve inside the
 * roots, so a link out of the workspace is refused rather than carried around.
 */
async function sourceEntry(ws: Workspace, input: string): Promise<string> {
  const real = await resolveWritePath(ws, input);
  const name = basename(input);
  if (name === "" || name === "." || isAbsolute(input) && dirname(input) === input) return real;
  const entry = join(await resolveInsideRoots(ws, dirname(input)), name);
  if (!(await lstatOrNull(entry))?.isSymlink) return real;
  await assertWritable(ws, entry, input);
  return entry;
}

async function moveByPath(ws: Workspace, plan: MovePlan): Promise<boolean> {
  await assertStillInside(ws, dirname(plan.source));
  await makeParents(plan.destination, plan.shownDestination);
  await assertStillInside(ws, plan.destination);
  return (await movePath(plan.source, plan.destination)).copied;
}

async function makeParents(abs: string, shown: string): Promise<void> {
  try {
    await Deno.mkdir(dirname(abs), { recursive: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotADirectory || error instanceof Deno.errors.AlreadyExists) {
      throw new ToolError("tool.path_invalid", `Cannot move to "${shown}": a parent of it is a file`);
    }
    throw error;
  }
}

async function textOrNull(ctx: ToolContext, abs: string, shown: string): Promise<string | null> {
  try {
    return (await readTextFile(ctx, abs, shown))?.text ?? null;
  } catch (error) {
    if (error instanceof ToolError) return null;
    throw error;
  }
}
