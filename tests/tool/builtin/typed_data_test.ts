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
  });
  const todo = await todoWriteTool.execute(
    { todos: [{ content: "ship", status: "pending" }] },
    { ...t.ctx, state: newSessionToolState() },
  );
  assert.deepEqual(todo.data, { kind: "todo", items: [{ content: "ship", status: "pending" }] });
});
