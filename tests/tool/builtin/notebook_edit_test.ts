import assert from "node:assert/strict";
import { join } from "node:path";
import { notebookEditTool } from "../../../src/tool/builtin/notebook_edit.ts";
import { makeTestWorkspace, previewThenRun, rejectsWithCode } from "../_tool_context.ts";

function notebook(minor = 5): Record<string, unknown> {
  return {
    cells: [
      { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Title\n", "text"] },
      {
        cell_type: "code",
        execution_count: 3,
        id: "calc",
        metadata: { tags: ["keep"] },
        outputs: [{ name: "stdout", output_type: "stream", text: ["2\n"] }],
        source: ["print(1 + 1)"],
      },
    ],
    metadata: { kernelspec: { display_name: "Python 3", language: "python", name: "python3" } },
    nbformat: 4,
    nbformat_minor: minor,
  };
}

/** As Jupyter writes it: 1-space indent and a final newline. */
function jupyterText(json: unknown): string {
  return JSON.stringify(json, null, 1) + "\n";
}

async function readJson(
  path: string,
): Promise<Record<string, unknown> & { cells: Record<string, unknown>[] }> {
  return JSON.parse(await Deno.readTextFile(path));
}

Deno.test("notebookEditTool replaces a code cell's source, clears its outputs and keeps the rest", async () => {
  await using t = await makeTestWorkspace();
  const original = jupyterText(notebook());
  const path = await t.write("nb.ipynb", original);
  const args = { path: "nb.ipynb", cell_number: 1, new_source: "x = 2\nprint(x)\n" };
  const expected = notebook();
  (expected.cells as unknown[])[1] = {
    cell_type: "code",
    execution_count: null,
    id: "calc",
    metadata: { tags: ["keep"] },
    outputs: [],
    source: ["x = 2\n", "print(x)\n"],
  };
  const result = await previewThenRun(notebookEditTool, args, t, {
    path: "nb.ipynb",
    oldText: original,
    newText: jupyterText(expected),
  });
  assert.equal(result.output, 'Replaced cell 1 (id "calc") in nb.ipynb (code, 2 lines; outputs cleared)');
  assert.equal(await Deno.readTextFile(path), jupyterText(expected));
});

Deno.test("notebookEditTool finds a cell by id and converts its type", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("nb.ipynb", jupyterText(notebook()));
  const result = await notebookEditTool.execute(
    { path: "nb.ipynb", cell_id: "calc", new_source: "Now *prose*", cell_type: "markdown" },
    t.ctx,
  );
  assert.equal(
    result.output,
    'Replaced cell 1 (id "calc") in nb.ipynb (markdown, was code, 1 line; outputs cleared)',
  );
  const cell = (await readJson(path)).cells[1];
  assert.deepEqual(cell, {
    cell_type: "markdown",
    id: "calc",
    metadata: { tags: ["keep"] },
    source: ["Now *prose*"],
  });
  assert.deepEqual(Object.keys(cell!), ["cell_type", "id", "metadata", "source"]);
});

Deno.test("notebookEditTool inserts cells Jupyter-shaped, with an id from nbformat 4.5", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("nb.ipynb", jupyterText(notebook()));
  const first = await notebookEditTool.execute(
    { path: "nb.ipynb", cell_number: 0, new_source: "import os\n", cell_type: "code", edit_mode: "insert" },
    t.ctx,
  );
  assert.match(
    first.output,
    /^Inserted code cell 0 \(id "[0-9a-f]{8}"\) in nb\.ipynb \(1 line\); the notebook now has 3 cells$/,
  );
  const after = await notebookEditTool.execute(
    { path: "nb.ipynb", cell_id: "intro", new_source: "## Part", cell_type: "markdown", edit_mode: "insert" },
    t.ctx,
  );
  assert.match(after.output, /^Inserted markdown cell 2 /);
  const end = await notebookEditTool.execute(
    { path: "nb.ipynb", new_source: "", cell_type: "markdown", edit_mode: "insert" },
    t.ctx,
  );
  assert.match(end.output, /^Inserted markdown cell 4 .*now has 5 cells$/);
  const json = await readJson(path);
  const code = json.cells[0]!;
  assert.deepEqual(Object.keys(code), [
    "cell_type",
    "execution_count",
    "id",
    "metadata",
    "outputs",
    "source",
  ]);
  assert.deepEqual({ ...code, id: "?" }, {
    cell_type: "code",
    execution_count: null,
    id: "?",
    metadata: {},
    outputs: [],
    source: ["import os\n"],
  });
  assert.deepEqual({ ...json.cells[2], id: "?" }, {
    cell_type: "markdown",
    id: "?",
    metadata: {},
    source: ["## Part"],
  });
  assert.deepEqual(json.cells.map((cell) => cell.id).slice(1, 2).concat([json.cells[3]!.id]), [
    "intro",
    "calc",
  ]);
  assert.equal(new Set(json.cells.map((cell) => cell.id)).size, 5);
  assert.deepEqual(json.metadata, notebook().metadata);
});

Deno.test("notebookEditTool gives no id to a new cell before nbformat 4.5", async () => {
  await using t = await makeTestWorkspace();
  const old = notebook(4);
  for (const cell of old.cells as Record<string, unknown>[]) delete cell.id;
  const path = await t.write("nb.ipynb", jupyterText(old));
  const result = await notebookEditTool.execute(
    { path: "nb.ipynb", new_source: "a", cell_type: "markdown", edit_mode: "insert" },
    t.ctx,
  );
  assert.equal(result.output, "Inserted markdown cell 2 in nb.ipynb (1 line); the notebook now has 3 cells");
  assert.deepEqual((await readJson(path)).cells[2], { cell_type: "markdown", metadata: {}, source: ["a"] });
  const byId = await rejectsWithCode(
    notebookEditTool.execute({ path: "nb.ipynb", cell_id: "x", new_source: "b" }, t.ctx),
    "tool.cell_not_found",
  );
  assert.equal(
    byId.message,
    'Cannot edit "nb.ipynb": no cell has id "x"; its cells have no ids, so use cell_number',
  );
});

Deno.test("notebookEditTool deletes a cell and keeps the file's indent and missing final newline", async () => {
  await using t = await makeTestWorkspace();
  const path = await t.write("nb.ipynb", JSON.stringify(notebook(), null, 2));
  const result = await notebookEditTool.execute(
    { path: "nb.ipynb", cell_number: 0, edit_mode: "delete" },
    t.ctx,
  );
  assert.equal(
    result.output,
    'Deleted markdown cell 0 (id "intro") from nb.ipynb; the notebook now has 1 cell',
  );
  const expected = notebook();
  (expected.cells as unknown[]).shift();
  assert.equal(await Deno.readTextFile(path), JSON.stringify(expected, null, 2));
});

Deno.test("notebookEditTool explains missing cells, bad arguments and bad notebooks", async () => {
  await using t = await makeTestWorkspace();
  const original = jupyterText(notebook());
  const path = await t.write("nb.ipynb", original);
  const range = await rejectsWithCode(
    notebookEditTool.execute({ path: "nb.ipynb", cell_number: 2, new_source: "x" }, t.ctx),
    "tool.cell_not_found",
  );
  assert.equal(range.message, 'Cannot edit "nb.ipynb": there is no cell 2; it has 2 cells (0-1)');
  const id = await rejectsWithCode(
    notebookEditTool.execute({ path: "nb.ipynb", cell_id: "nope", edit_mode: "delete" }, t.ctx),
    "tool.cell_not_found",
  );
  assert.equal(id.message, 'Cannot edit "nb.ipynb": no cell has id "nope"; known ids are "intro", "calc"');
  const insert = await rejectsWithCode(
    notebookEditTool.execute({ path: "nb.ipynb", new_source: "x", edit_mode: "insert" }, t.ctx),
    "tool.invalid_args",
  );
  assert.equal(insert.message, 'Cannot insert a cell into "nb.ipynb": give cell_type ("code" or "markdown")');
  const cases = [
    { path: "nb.ipynb", cell_number: 0 },
    { path: "nb.ipynb", new_source: "x" },
    { path: "nb.ipynb", cell_number: 0, cell_id: "calc", new_source: "x" },
  ];
  for (const args of cases) await rejectsWithCode(notebookEditTool.execute(args, t.ctx), "tool.invalid_args");
  await rejectsWithCode(
    notebookEditTool.execute(
      { path: "nb.ipynb", cell_number: 3, cell_type: "code", edit_mode: "insert" },
      t.ctx,
    ),
    "tool.cell_not_found",
  );
  assert.equal(await Deno.readTextFile(path), original);
  await t.write("broken.ipynb", "{ not json");
  await t.write("list.ipynb", '{"nbformat": 4, "cells": {}}');
  await t.write("v3.ipynb", '{"nbformat": 3, "nbformat_minor": 0, "cells": []}');
  for (const name of ["broken.ipynb", "list.ipynb", "v3.ipynb"]) {
    const error = await rejectsWithCode(
      notebookEditTool.execute({ path: name, cell_number: 0, edit_mode: "delete" }, t.ctx),
      "tool.invalid_notebook",
    );
    assert.match(error.message, new RegExp(`^Cannot edit "${name.replace(".", "\\.")}" as a notebook: `));
  }
  await rejectsWithCode(
    notebookEditTool.execute({ path: "missing.ipynb", cell_number: 0, edit_mode: "delete" }, t.ctx),
    "tool.not_found",
  );
  await t.write("script.py", "x = 1\n");
  await rejectsWithCode(
    notebookEditTool.execute({ path: "script.py", cell_number: 0, edit_mode: "delete" }, t.ctx),
    "tool.unsupported_file",
  );
});

Deno.test("notebookEditTool refuses paths that escape the workspace and writes nothing outside", async () => {
  await using t = await makeTestWorkspace();
  const victim = join(t.outside, "victim.ipynb");
  const original = jupyterText(notebook());
  await Deno.writeTextFile(victim, original);
  await Deno.symlink(victim, join(t.root, "link.ipynb"));
  const args = { cell_number: 0, edit_mode: "delete" as const };
  await rejectsWithCode(
    notebookEditTool.execute({ path: "../outside/victim.ipynb", ...args }, t.ctx),
    "tool.path_traversal",
  );
  await rejectsWithCode(
    notebookEditTool.execute({ path: victim, ...args }, t.ctx),
    "tool.path_outside_workspace",
  );
  await rejectsWithCode(
    notebookEditTool.execute({ path: "link.ipynb", ...args }, t.ctx),
    "tool.path_outside_workspace",
  );
  assert.equal(await Deno.readTextFile(victim), original);
  assert.deepEqual([...Deno.readDirSync(t.outside)].map((entry) => entry.name), ["victim.ipynb"]);
});
