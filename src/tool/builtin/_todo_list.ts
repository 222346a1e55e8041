/** Shared by todo_write and complete_step: the session's todo list and its checklist rendering. */
import type { SessionToolState, TodoItem, TodoStatus } from "../session_state.ts";
import { type ToolContext, ToolError } from "../tool.ts";

const MARKS: Record<TodoStatus, string> = { completed: "[x]", in_progress: "[>]", pending: "[ ]" };

/** The session state, or a ToolError naming what could not be done without it. */
export function requireState(ctx: ToolContext, action: string): SessionToolState {
  if (ctx.state) return ctx.state;
  throw new ToolError(
    "tool.no_session_state",
    `Cannot ${action}: this call has no session state to keep it in`,
  );
}

/** One line per item (`[x]` completed, `[>]` in progress, `[ ]` pending), then the counts. */
export function formatChecklist(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "The todo list is empty";
  const count = (status: TodoStatus) => todos.filter((todo) => todo.status === status).length;
  const lines = todos.map((todo) => `${MARKS[todo.status]} ${todo.content}`);
  const counts = `${count("completed")} completed, ${count("in_progress")} in progress, ${
    count("pending")
  } pending`;
  return `${lines.join("\n")}\n(${counts})`;
}
