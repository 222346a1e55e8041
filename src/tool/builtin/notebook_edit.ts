import { z } from "zod";
import { type PlannedChange, type ToolContext, ToolError } from "../tool.ts";
import { definePlannedTool } from "../planned.ts";
import { displayPath, resolveWritePath } from "../workspace_paths.ts";
import { isUniformCrlf } from "./_edit_core.ts";
import { type Cell, isCodeCell, makeCell, type Notebook, parseNotebook, setCellSource } from "./_notebook.ts";
import { countLines, encodeText, readTextFile } from "./_text_file.ts";
import { plannedRewrite, type Rewrite } from "./_rewrite.ts";

const DESCRIPTION =
  `Edit one cell of a .ipynb notebook, chosen by cell_number (0-based) or cell_id. edit_mode "replace" (default) sets its source (a code cell loses its outputs); "insert" adds a cell (cell_type required); "delete" removes it.`;

const parameters = z.object({
  path: z.string().describe("Notebook path ending in .ipynb"),
  cell_number: z.number().int().min(0).optional().describe(
    "0-based index; for insert, the new cell's index",
  ),
  cell_id: z.string().optional().describe(
    "The cell's id; for insert, the new cell goes after it",
  ),
  new_source: z.string().optional().describe("The cell's full new source"),
  cell_type: z.enum(["code", "markdown"]).optional().describe(
    "Required for insert; for replace, converts the cell",
  ),
  edit_mode: z.enum(["replace", "insert", "delete"]).optional().describe(
    "Default replace",
  ),
});

type NotebookArgs = z.infer<typeof parameters>;

interface NotebookPlan extends Rewrite {
  summary: string;
}

export const notebookEditTool = definePlannedTool({
  name: "notebook_edit",
  description: DESCRIPTION,
  parameters,
  async plan(args, ctx): Promise<PlannedChange> {
    const plan = await planNotebookEdit(args, ctx);
    return plannedRewrite(ctx, plan, () => plan.summary);
  },
});

async function planNotebookEdit(args: NotebookArgs, ctx: ToolContext): Promise<NotebookPlan> {
  if (!args.path.toLowerCase().endsWith(".ipynb")) {
    throw new ToolError(
      "tool.unsupported_file",
      `Cannot edit "${args.path}" as a notebook: the path must end in .ipynb; use edit_file for other files`,
    );
  }
  const abs = await resolveWritePath(ctx.workspace, args.path);
  const shown = displayPath(ctx.workspace, abs);
  const file = await readTextFile(ctx, abs, shown);
  if (file === null) throw new ToolError("tool.not_found", `Cannot edit "${shown}": no such notebook`);
  const notebook = parseNotebook(file.text, shown);
  const mode = args.edit_mode ?? "replace";
  const summary = mode === "insert"
    ? insertCell(notebook, args, shown)
    : mode === "delete"
    ? deleteCell(notebook, args, shown)
    : replaceCell(notebook, args, shown);
  const newText = serialise(notebook.json, file.text);
  return {
    abs,
    shown,
    oldText: file.text,
    raw: file.raw,
    newText,
    bytes: encodeText(newText, file.encoding, file.bom),
    summary,
  };
}

function replaceCell(notebook: Notebook, args: NotebookArgs, shown: string): string {
  if (args.new_source === undefined) {
    throw new ToolError("tool.invalid_args", `Cannot replace a cell in "${shown}": give new_source`);
  }
  const index = locateCell(notebook, args, shown);
  const old = notebook.cells[index]!;
  const type = args.cell_type ?? String(old.cell_type);
  const cell = setCellSource(old, args.new_source, type);
  notebook.cells[index] = cell;
  const cleared = isCodeCell(old) && hasOutputs(old) ? "; outputs cleared" : "";
  const converted = type !== old.cell_type ? `, was ${String(old.cell_type)}` : "";
  return `Replaced cell ${describeCell(cell, index)} in ${shown} (${type}${converted}, ` +
    `${plural(countLines(args.new_source), "line")}${cleared})`;
}

function insertCell(notebook: Notebook, args: NotebookArgs, shown: string): string {
  if (args.cell_type === undefined) {
    throw new ToolError(
      "tool.invalid_args",
      `Cannot insert a cell into "${shown}": give cell_type ("code" or "markdown")`,
    );
  }
  const source = args.new_source ?? "";
  const index = insertIndex(notebook, args, shown);
  const cell = makeCell(args.cell_type, source, notebook.withIds ? newCellId(notebook.cells) : undefined);
  notebook.cells.splice(index, 0, cell);
  return `Inserted ${args.cell_type} cell ${describeCell(cell, index)} in ${shown} ` +
    `(${plural(countLines(source), "line")}); the notebook now has ${plural(notebook.cells.length, "cell")}`;
}

function deleteCell(notebook: Notebook, args: NotebookArgs, shown: string): string {
  const index = locateCell(notebook, args, shown);
  const [cell] = notebook.cells.splice(index, 1);
  return `Deleted ${String(cell!.cell_type)} cell ${describeCell(cell!, index)} from ${shown}; ` +
    `the notebook now has ${plural(notebook.cells.length, "cell")}`;
}

/** The index of an existing cell named by cell_number or cell_id (which must agree when both are given). */
function locateCell(notebook: Notebook, args: NotebookArgs, shown: string): number {
  const byId = args.cell_id === undefined ? undefined : findById(notebook, args.cell_id, shown);
  if (byId !== undefined && args.cell_number !== undefined && byId !== args.cell_number) {
    throw new ToolError(
      "tool.invalid_args",
      `Cannot edit "${shown}": cell_id "${args.cell_id}" is cell ${byId}, not cell_number ${args.cell_number}; ` +
        "give just one of them",
    );
  }
  if (byId !== undefined) return byId;
  if (args.cell_number === undefined) {
    throw new ToolError("tool.invalid_args", `Cannot edit "${shown}": give cell_number or cell_id`);
  }
  if (args.cell_number >= notebook.cells.length) throw outOfRange(notebook, args.cell_number, shown);
  return args.cell_number;
}

function insertIndex(notebook: Notebook, args: NotebookArgs, shown: string): number {
  if (args.cell_id !== undefined) return findById(notebook, args.cell_id, shown) + 1;
  if (args.cell_number === undefined) return notebook.cells.length;
  if (args.cell_number > notebook.cells.length) throw outOfRange(notebook, args.cell_number, shown);
  return args.cell_number;
}

function findById(notebook: Notebook, id: string, shown: string): number {
  const index = notebook.cells.findIndex((cell) => cell.id === id);
  if (index !== -1) return index;
  const ids = notebook.cells.map((cell) => cell.id).filter((value) => typeof value === "string");
  const known = ids.length === 0
    ? "its cells have no ids, so use cell_number"
    : `known ids are ${ids.slice(0, 20).map((value) => `"${value}"`).join(", ")}${
      ids.length > 20 ? ", …" : ""
    }`;
  return fail("tool.cell_not_found", `Cannot edit "${shown}": no cell has id "${id}"; ${known}`);
}

function outOfRange(notebook: Notebook, cellNumber: number, shown: string): ToolError {
  const count = notebook.cells.length;
  const valid = count === 0 ? "it has no cells" : `it has ${count} cells (0-${count - 1})`;
  return new ToolError(
    "tool.cell_not_found",
    `Cannot edit "${shown}": there is no cell ${cellNumber}; ${valid}`,
  );
}

function fail(code: string, message: string): never {
  throw new ToolError(code, message);
}

function describeCell(cell: Cell, index: number): string {
  return typeof cell.id === "string" ? `${index} (id "${cell.id}")` : String(index);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function hasOutputs(cell: Cell): boolean {
  return (Array.isArray(cell.outputs) && cell.outputs.length > 0) || cell.execution_count != null;
}

function newCellId(cells: readonly Cell[]): string {
  const taken = new Set(cells.map((cell) => cell.id));
  for (;;) {
    const id = crypto.randomUUID().replaceAll("-", "").slice(0, 8);
    if (!taken.has(id)) return id;
  }
}

/** Writes the notebook the way the file was written: same indent, final newline and line endings. */
function serialise(json: Record<string, unknown>, original: string): string {
  const indent = /^\{\r?\n([ \t]+)"/.exec(original)?.[1];
  let text = JSON.stringify(json, null, indent);
  if (original.endsWith("\n")) text += "\n";
  return isUniformCrlf(original) ? text.replaceAll("\n", "\r\n") : text;
}
