import { z } from "zod";
import type { TodoItem } from "../session_state.ts";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import { formatChecklist, requireState } from "./_todo_list.ts";

const DESCRIPTION =
  `Sign off the in_progress todo item with evidence: "verification" (a passing command; give command), "diff", "files" (give paths) or "manual". Marks it completed, starts the next pending item and returns the checklist.`;

const parameters = z.object({
  summary: z.string().trim().min(1).describe("What was done in this step, in a sentence or two"),
  evidence: z.enum(["verification", "diff", "files", "manual"]).describe("What shows the step is done"),
  command: z.string().trim().min(1).optional().describe(
    'The command that verified the step (required for "verification")',
  ),
  paths: z.array(z.string().min(1)).optional().describe(
    'The files that show the step (required for "files")',
  ),
});

type Args = z.infer<typeof parameters>;

export const completeStepTool = defineTool({
  name: "complete_step",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  execute(args, ctx) {
    // The executor turns a synchronous throw into a rejection.
    return new Promise((resolve) => resolve(completeStep(args, ctx)));
  },
});

function completeStep(args: Args, ctx: ToolContext): ToolResult {
  const state = requireState(ctx, "complete a step");
  const current = state.todos.findIndex((todo) => todo.status === "in_progress");
  if (current === -1) {
    throw new ToolError(
      "tool.no_current_step",
      'Cannot complete a step: no todo item is in_progress; call todo_write with the current step\'s status set to "in_progress" first',
    );
  }
  const step = state.todos[current]!;
  checkEvidence(args, step.content);
  const todos: TodoItem[] = state.todos.map((todo) => ({ ...todo }));
  todos[current]!.status = "completed";
  const next = nextPending(todos, current);
  if (next !== -1) todos[next]!.status = "in_progress";
  state.todos = todos;
  const follow = next === -1 ? "No pending steps remain" : `Next step: "${todos[next]!.content}"`;
  const lines = [
    `Completed "${step.content}": ${args.summary}`,
    `Evidence: ${describeEvidence(args)}`,
    follow,
  ];
  return {
    output: `${lines.join("\n")}\n\n${formatChecklist(todos)}`,
    data: { kind: "todo", items: structuredClone(todos) },
  };
}

function checkEvidence(args: Args, step: string): void {
  if (args.evidence === "verification" && args.command === undefined) {
    throw new ToolError(
      "tool.missing_evidence",
      `Cannot complete "${step}": evidence "verification" needs command, the command that verified it`,
    );
  }
  if (args.evidence === "files" && (args.paths === undefined || args.paths.length === 0)) {
    throw new ToolError(
      "tool.missing_evidence",
      `Cannot complete "${step}": evidence "files" needs paths, the files that show the step is done`,
    );
  }
}

function describeEvidence(args: Args): string {
  if (args.evidence === "verification") return `verified with \`${args.command}\``;
  if (args.evidence === "files") return `files ${args.paths!.map((path) => `"${path}"`).join(", ")}`;
  return args.evidence === "diff" ? "the diff of the changes" : "a manual check";
}

/** The first pending item after `from`, else the first pending one before it. */
function nextPending(todos: readonly TodoItem[], from: number): number {
  const after = todos.findIndex((todo, i) => i > from && todo.status === "pending");
  return after !== -1 ? after : todos.findIndex((todo) => todo.status === "pending");
}
