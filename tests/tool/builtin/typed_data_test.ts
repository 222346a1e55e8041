/**
 * Built-in tools report typed data beside the model-facing text, so faces never parse the text.
 */
import assert from "node:assert/strict";
import { makeTestWorkspace } from "../_tool_context.ts";
import { editFileTool } from "../../../src/tool/builtin/edit_file.ts";
import { writeFileTool } from "../../../src/tool/builtin/write_file.ts";
import { multiEditTool } from "../../../src/tool/builtin/multi_edit.ts";
import { readFileTool } from "../../../src/tool/builtin/read_file.ts";
import { lsTool } from "../../../src/tool/builtin/ls.ts";
import { bashTool } from "../../../src/tool/builtin/bash.ts";
import { todoWriteTool } from "../../../src/tool/builtin/todo_write.ts";
import { newSessionToolState } from "../../../src/tool/session_state.ts";
import { grepTool } from "../../../src/tool/builtin/grep.ts";
import { globTool } from "../../../src/tool/builtin/glob.ts";
import { codeIndexTool } from "../../../src/tool/builtin/code_index.ts";
import { createWebFetchTool } from "../../../src/tool/builtin/web_fetch.ts";
import { moveFileTool } from "../../../src/tool/builtin/move_file.ts";
import { deleteRangeTool } from "../../../src/tool/builtin/delete_range.ts";
import { deleteSymbolTool } from "../../../src/tool/builtin/delete_symbol.ts";
import { notebookEditTool } from "../../../src/tool/builtin/notebook_edit.ts";
import { bashOutputTool } from "../../../src/tool/builtin/bash_output.ts";
import { waitTool } from "../../../src/tool/builtin/wait.ts";
import { killShellTool } from "../../../src/tool/builtin/kill_shell.ts";
import { askTool } from "../../../src/tool/builtin/ask.ts";
import { updateGoalTool } from "../../../src/tool/builtin/update_goal.ts";
import { JobTable } from "../../../src/tool/jobs.ts";
import { DirectSandbox } from "../../../src/sandbox/none.ts";
import { stateContext } from "./_state_context.ts";

Deno.test("built-in tools return typed data: diff, read, list, bash, todo", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "alpha\nbeta\n");
  const edit = await editFileTool.execute({ path: "a.txt", old_string: "alpha", new_string: "gamma" }, t.ctx);
  assert.deepEqual(edit.data, {
    kind: "diff",
    path: "a.txt",
    before: "alpha\nbeta\n",
    after: "gamma\nbeta\n",
  });
  const write = await writeFileTool.execute({ path: "b.txt", content: "new\n" }, t.ctx);
  assert.deepEqual(write.data, { kind: "diff", path: "b.txt", before: null, after: "new\n" });
  const multi = await multiEditTool.execute({
    path: "b.txt",
    edits: [{ old_string: "new", new_string: "newer" }],
  }, t.ctx);
  assert.deepEqual(multi.data, { kind: "diff", path: "b.txt", before: "new\n", after: "newer\n" });
  const read = await readFileTool.execute({ path: "a.txt", limit: 1 }, t.ctx);
  assert.deepEqual(read.data, { kind: "read", path: "a.txt", lines: 1, offset: 0, totalLines: 2 });
  const ls = await lsTool.execute({ path: "." }, t.ctx);
  assert.deepEqual(ls.data, { kind: "list", path: ".", entries: 2 });
  const bash = await bashTool.execute({ command: "exit 3" }, t.ctx);
  assert.equal(bash.data?.kind, "bash");
  assert.deepEqual({ ...bash.data, durationMs: 0 }, {
    kind: "bash",
    exitCode: 3,
    durationMs: 0,
    timedOut: false,
    signal: null,
    lines: 0,
    sandboxDenied: false,
  });
  const todo = await todoWriteTool.execute(
    { todos: [{ content: "ship", status: "pending" }] },
    { ...t.ctx, state: newSessionToolState() },
  );
  assert.deepEqual(todo.data, { kind: "todo", items: [{ content: "ship", status: "pending" }] });
});

Deno.test("search tools return typed data: grep and glob counts, code_index matches", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.ts", "export function alpha() {}\nexport function alphabet() {}\n");
  await t.write("b.ts", "const alpha = 1;\n");
  const grep = await grepTool.execute({ pattern: "alpha" }, t.ctx);
  assert.deepEqual(grep.data, { kind: "search", pattern: "alpha", matches: 3, files: 2 });
  const none = await grepTool.execute({ pattern: "omega" }, t.ctx);
  assert.deepEqual(none.data, { kind: "search", pattern: "omega", matches: 0, files: 0 });
  const glob = await globTool.execute({ pattern: "*.ts" }, t.ctx);
  assert.deepEqual(glob.data, { kind: "search", pattern: "*.ts", matches: 2, files: 2 });
  const symbols = await codeIndexTool.execute({ action: "search", query: "alpha" }, t.ctx);
  assert.deepEqual(symbols.data, { kind: "symbols", matches: 3 });
  const nothing = await codeIndexTool.execute({ action: "search", query: "omega" }, t.ctx);
  assert.deepEqual(nothing.data, { kind: "symbols", matches: 0 });
});

Deno.test("writing tools return typed data: move, delete_range, delete_symbol, notebook_edit diffs", async () => {
  await using t = await makeTestWorkspace();
  await t.write("a.txt", "keep\n");
  const move = await moveFileTool.execute({ source_path: "a.txt", destination_path: "b.txt" }, t.ctx);
  assert.deepEqual(move.data, { kind: "move", from: "a.txt", to: "b.txt" });
  await t.write("r.txt", "one\ntwo\nthree\n");
  const range = await deleteRangeTool.execute(
    { path: "r.txt", start_anchor: "two", end_anchor: "three" },
    t.ctx,
  );
  assert.deepEqual(range.data, { kind: "diff", path: "r.txt", before: "one\ntwo\nthree\n", after: "one\n" });
  await t.write("s.ts", "function a() {}\nfunction b() {}\n");
  const symbol = await deleteSymbolTool.execute({ path: "s.ts", name: "a" }, t.ctx);
  assert.deepEqual(symbol.data, {
    kind: "diff",
    path: "s.ts",
    before: "function a() {}\nfunction b() {}\n",
    after: "function b() {}\n",
  });
  const cell = { cell_type: "code", execution_count: null, metadata: {}, outputs: [], source: ["x = 1\n"] };
  const before = JSON.stringify({ cells: [cell], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1) +
    "\n";
  await t.write("n.ipynb", before);
  const notebook = await notebookEditTool.execute(
    { path: "n.ipynb", cell_number: 0, new_source: "x = 2\n" },
    t.ctx,
  );
  assert.equal(notebook.data?.kind, "diff");
  assert.deepEqual(notebook.data?.kind === "diff" && [notebook.data.path, notebook.data.before], [
    "n.ipynb",
    before,
  ]);
  assert.match(notebook.data?.kind === "diff" ? notebook.data.after ?? "" : "", /x = 2/);
});

Deno.test("job tools return typed data: bash_output, wait and kill_shell report the job", async () => {
  await using t = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...t.ctx, jobs };
  const started = await bashTool.execute({ command: "exit 2", run_in_background: true }, ctx);
  const id = /bash-\d+/.exec(started.output)![0];
  const waited = await waitTool.execute({ job_id: id }, ctx);
  assert.deepEqual(waited.data, { kind: "job", jobId: id, status: "exited", exitCode: 2 });
  const read = await bashOutputTool.execute({ job_id: id }, ctx);
  assert.deepEqual(read.data, { kind: "job", jobId: id, status: "exited", exitCode: 2 });
  const long = await bashTool.execute({ command: "sleep 100", run_in_background: true }, ctx);
  const longId = /bash-\d+/.exec(long.output)![0];
  const killed = await killShellTool.execute({ job_id: longId }, ctx);
  assert.equal(killed.data?.kind, "job");
  assert.deepEqual(killed.data?.kind === "job" && [killed.data.jobId, killed.data.status], [
    longId,
    "killed",
  ]);
});

Deno.test("ask, update_goal and web_fetch return typed data", async () => {
  const question = { header: "DB", question: "Which?", options: [{ label: "pg" }, { label: "sqlite" }] };
  const answered = await askTool.execute({ questions: [question] }, {
    ...stateContext(),
    questions: { ask: () => Promise.resolve({ kind: "answered", answers: [{ labels: ["pg"] }] }) },
  });
  assert.deepEqual(answered.data, { kind: "answers", outcome: "answered", answers: { DB: '"pg"' } });
  const alone = await askTool.execute({ questions: [question] }, stateContext());
  assert.deepEqual(alone.data, { kind: "answers", outcome: "unanswered", answers: {} });
  const state = newSessionToolState();
  state.goal = { id: "g1", objective: "ship", revision: 1, status: "active" };
  const goal = await updateGoalTool.execute(
    { goal_id: "g1", revision: 1, action: "pause" },
    stateContext(state),
  );
  assert.deepEqual(goal.data, { kind: "goal", id: "g1", objective: "ship", status: "paused" });
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("hello", { headers: { "content-type": "text/plain" } }),
  );
  const url = `http://127.0.0.1:${server.addr.port}/x`;
  const fetched = await createWebFetchTool().execute({ url }, {
    ...stateContext(),
    network: { allowed: true, allowPrivate: ["127.0.0.1"] },
  });
  assert.deepEqual(fetched.data, { kind: "fetch", url, status: 200, bytes: 5, contentType: "text/plain" });
});
