import assert from "node:assert/strict";
import { todoWriteTool } from "../../../src/tool/builtin/todo_write.ts";
import type { TodoItem } from "../../../src/tool/session_state.ts";
import { rejectsWithCode } from "../_tool_context.ts";
import { stateContext } from "./_state_context.ts";

const PLAN: TodoItem[] = [
  { content: "read the code", status: "completed" },
  { content: "fix the bug", status: "in_progress" },
  { content: "run the tests", status: "pending" },
];

Deno.test("todoWriteTool stores the list and returns the checklist with counts", async () => {
  const ctx = stateContext();
  const result = await todoWriteTool.execute({ todos: PLAN }, ctx);
  assert.deepEqual(result, {
    output: "[x] read the code\n[>] fix the bug\n[ ] run the tests\n(1 completed, 1 in progress, 1 pending)",
    data: { kind: "todo", items: PLAN },
  });
  assert.deepEqual(ctx.state?.todos, PLAN);
  assert.notEqual(ctx.state?.todos[0], PLAN[0], "the state keeps its own copies");
});

Deno.test("todoWriteTool replaces the whole list, and an empty list clears it", async () => {
  const ctx = stateContext();
  await todoWriteTool.execute({ todos: PLAN }, ctx);
  await todoWriteTool.execute({ todos: [{ content: "only this", status: "pending" }] }, ctx);
  assert.deepEqual(ctx.state?.todos, [{ content: "only this", status: "pending" }]);
  assert.deepEqual(await todoWriteTool.execute({ todos: [] }, ctx), {
    output: "The todo list is empty",
    data: { kind: "todo", items: [] },
  });
  assert.deepEqual(ctx.state?.todos, []);
});

Deno.test("todoWriteTool refuses more than one in_progress item and keeps the old list", async () => {
  const ctx = stateContext();
  await todoWriteTool.execute({ todos: PLAN }, ctx);
  const error = await rejectsWithCode(
    todoWriteTool.execute({
      todos: [{ content: "a", status: "in_progress" }, { content: "b", status: "in_progress" }],
    }, ctx),
    "tool.invalid_todos",
  );
  assert.equal(
    error.message,
    'Cannot update the todo list: 2 items are in_progress ("a", "b"); mark at most one',
  );
  assert.deepEqual(ctx.state?.todos, PLAN);
});

Deno.test("todoWriteTool fails clearly without session state", async () => {
  const error = await rejectsWithCode(
    todoWriteTool.execute({ todos: PLAN }, stateContext(null)),
    "tool.no_session_state",
  );
  assert.equal(error.message, "Cannot update the todo list: this call has no session state to keep it in");
});

Deno.test("todoWriteTool schema rejects unknown statuses and empty content", () => {
  assert.equal(
    todoWriteTool.parameters.safeParse({ todos: [{ content: "x", status: "done" }] }).success,
    false,
  );
  assert.equal(
    todoWriteTool.parameters.safeParse({ todos: [{ content: " ", status: "pending" }] }).success,
    false,
  );
  assert.equal(todoWriteTool.parameters.safeParse({}).success, false);
  assert.equal(todoWriteTool.readOnly, true);
});
