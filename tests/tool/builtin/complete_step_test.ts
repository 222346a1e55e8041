import assert from "node:assert/strict";
import { completeStepTool } from "../../../src/tool/builtin/complete_step.ts";
import { newSessionToolState, type TodoItem } from "../../../src/tool/session_state.ts";
import { rejectsWithCode } from "../_tool_context.ts";
import { stateContext } from "./_state_context.ts";

function withTodos(todos: TodoItem[]) {
  const state = newSessionToolState();
  state.todos = todos.map((todo) => ({ ...todo }));
  return stateContext(state);
}

Deno.test("completeStepTool completes the current step and starts the next pending one", async () => {
  const ctx = withTodos([
    { content: "fix", status: "in_progress" },
    { content: "test", status: "pending" },
    { content: "ship", status: "pending" },
  ]);
  const result = await completeStepTool.execute(
    { summary: "patched the parser", evidence: "verification", command: "deno test" },
    ctx,
  );
  assert.deepEqual(result, {
    output: [
      'Completed "fix": patched the parser',
      "Evidence: verified with `deno test`",
      'Next step: "test"',
      "",
      "[x] fix\n[>] test\n[ ] ship\n(1 completed, 1 in progress, 1 pending)",
    ].join("\n"),
    data: { kind: "todo", items: ctx.state!.todos },
  });
  assert.deepEqual(ctx.state?.todos.map((todo) => todo.status), ["completed", "in_progress", "pending"]);
});

Deno.test("completeStepTool says when no pending steps remain and takes an earlier pending one", async () => {
  const last = withTodos([{ content: "a", status: "completed" }, { content: "b", status: "in_progress" }]);
  const done = await completeStepTool.execute({ summary: "done", evidence: "diff" }, last);
  assert.match(
    done.output,
    /^Completed "b": done\nEvidence: the diff of the changes\nNo pending steps remain\n/,
  );
  assert.deepEqual(last.state?.todos.map((todo) => todo.status), ["completed", "completed"]);

  const earlier = withTodos([{ content: "a", status: "pending" }, { content: "b", status: "in_progress" }]);
  await completeStepTool.execute({ summary: "ok", evidence: "files", paths: ["src/b.ts"] }, earlier);
  assert.deepEqual(earlier.state?.todos.map((todo) => todo.status), ["in_progress", "completed"]);
});

Deno.test("completeStepTool refuses without an in_progress step and says how to set one", async () => {
  const ctx = withTodos([{ content: "a", status: "pending" }]);
  const error = await rejectsWithCode(
    completeStepTool.execute({ summary: "x", evidence: "manual" }, ctx),
    "tool.no_current_step",
  );
  assert.match(error.message, /no todo item is in_progress; call todo_write/);
  assert.deepEqual(ctx.state?.todos, [{ content: "a", status: "pending" }]);
});

Deno.test("completeStepTool refuses verification without command and files without paths", async () => {
  const ctx = withTodos([{ content: "fix", status: "in_progress" }]);
  const noCommand = await rejectsWithCode(
    completeStepTool.execute({ summary: "x", evidence: "verification" }, ctx),
    "tool.missing_evidence",
  );
  assert.equal(
    noCommand.message,
    'Cannot complete "fix": evidence "verification" needs command, the command that verified it',
  );
  const noPaths = await rejectsWithCode(
    completeStepTool.execute({ summary: "x", evidence: "files", paths: [] }, ctx),
    "tool.missing_evidence",
  );
  assert.match(noPaths.message, /evidence "files" needs paths/);
  assert.deepEqual(ctx.state?.todos, [{ content: "fix", status: "in_progress" }]);
});

Deno.test("completeStepTool fails clearly without session state", async () => {
  await rejectsWithCode(
    completeStepTool.execute({ summary: "x", evidence: "manual" }, stateContext(null)),
    "tool.no_session_state",
  );
});
