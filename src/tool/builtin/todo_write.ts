import { z } from "zod";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import { formatChecklist, requireState } from "./_todo_list.ts";

const DESCRIPTION =
  `Replace the session's todo list with the full list (not an append). Plan multi-step work with it: keep exactly one item in_progress while you work and mark items completed as soon as they are done. Returns the checklist.`;

const parameters = z.object({
  todos: z.array(
    z.object({
      content: z.string().trim().min(1).describe("What the step does, in one short imperative line"),
      status: z.enum(["pending", "in_progress", "completed"]),
    }),
  ).describe("The complete todo list, in order; it replaces the previous one"),
});

export const todoWriteTool = defineTool({
  name: "todo_write",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  execute(args, ctx) {
    // The executor turns a synchronous throw into a rejection.
    return new Promise((resolve) => resolve(writeTodos(args, ctx)));
  },
});

function writeTodos(args: z.infer<typeof parameters>, ctx: ToolContext): ToolResult {
  const state = requireState(ctx, "update the todo list");
  const active = args.todos.filter((todo) => todo.status === "in_progress");
  if (active.length > 1) {
    const names = active.map((todo) => `"${todo.content}"`).join(", ");
    throw new ToolError(
      "tool.invalid_todos",
      `Cannot update the todo list: ${active.length} items are in_progress (${names}); mark at most one`,
    );
  }
  state.todos = args.todos.map((todo) => ({ content: todo.content, status: todo.status }));
  return {
    output: formatChecklist(state.todos),
    data: { kind: "todo", items: structuredClone(state.todos) },
  };
}
