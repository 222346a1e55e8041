/**
 * @module
 * The parts of the nbformat 4 document notebook_edit touches: the cells list, ids (4.5+), and cells
 * shaped the way Jupyter writes them (source as a list of lines, keys in sorted order).
 */
import { ToolError } from "../tool.ts";

export type Cell = Record<string, unknown> & { cell_type: unknown; id?: unknown };

export interface Notebook {
  /** The whole document; `cells` is the same array as `json.cells`. */
  json: Record<string, unknown>;
  cells: Cell[];
  /** nbformat 4.5+ requires every cell to have an id. */
  withIds: boolean;
}

export function parseNotebook(text: string, shown: string): Notebook {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw invalid(shown, `it is not valid JSON (${(error as Error).message})`);
  }
  if (!isRecord(json) || !Array.isArray(json.cells)) throw invalid(shown, `it has no "cells" list`);
  const nbformat = json.nbformat;
  if (typeof nbformat !== "number") throw invalid(shown, `it has no numeric "nbformat"`);
  if (nbformat < 4) {
    throw invalid(
      shown,
      `nbformat ${nbformat} is not supported; upgrade it with "jupyter nbconvert --to notebook"`,
    );
  }
  const bad = json.cells.findIndex((cell) => !isRecord(cell) || typeof cell.cell_type !== "string");
  if (bad !== -1) throw invalid(shown, `cell ${bad} has no "cell_type"`);
  const minor = typeof json.nbformat_minor === "number" ? json.nbformat_minor : 0;
  return { json, cells: json.cells as Cell[], withIds: nbformat > 4 || minor >= 5 };
}

export function isCodeCell(cell: Cell): boolean {
  return cell.cell_type === "code";
}

/** A new cell as Jupyter would write it. */
export function makeCell(type: "code" | "markdown", source: string, id: string | undefined): Cell {
  const cell: Cell = { cell_type: type };
  if (type === "code") cell.execution_count = null;
  if (id !== undefined) cell.id = id;
  cell.metadata = {};
  if (type === "code") cell.outputs = [];
  cell.source = sourceLines(source);
  return cell;
}

/** `old` with a new source (and maybe type); a code cell's outputs go, since they belong to the old code. */
export function setCellSource(old: Cell, source: string, type: string): Cell {
  const cell: Cell = { ...old, cell_type: type, source: sourceLines(source) };
  if (type === "code") {
    cell.execution_count = null;
    cell.outputs = [];
  } else {
    delete cell.execution_count;
    delete cell.outputs;
  }
  if (!isRecord(cell.metadata)) cell.metadata = {};
  return keysSorted(old) ? sortKeys(cell) : cell;
}

/** Jupyter's split: every line keeps its "\n" except the last. */
export function sourceLines(source: string): string[] {
  return source.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function keysSorted(record: Record<string, unknown>): boolean {
  const keys = Object.keys(record);
  return keys.every((key, index) => index === 0 || keys[index - 1]! <= key);
}

function sortKeys(cell: Cell): Cell {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(cell).sort()) out[key] = cell[key];
  return out as Cell;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function invalid(shown: string, why: string): ToolError {
  return new ToolError("tool.invalid_notebook", `Cannot edit "${shown}" as a notebook: ${why}`);
}
