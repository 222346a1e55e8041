import { z } from "zod";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import type { PlanOutcome, PlanStep } from "../plan.ts";
import { formatChecklist } from "./_todo_list.ts";

const DESCRIPTION =
  `Plan mode only: propose the plan for the user's review once you have explored enough. The user approves it (plan mode ends and the steps become your todo list), asks for a revision (with feedback), or rejects it.`;

const parameters = z.object({
  summary: z.string().trim().min(1).max(4000).describe("What will change and why, in a few sentences"),
  steps: z.array(z.object({
    content: z.string().trim().min(1).max(500).describe("One short imperative line"),
    detail: z.string().trim().max(2000).optional().describe("Files, commands, risks"),
  })).min(1).max(50),
});

type Args = z.infer<typeof parameters>;

export const SUBMIT_PLAN = "submit_plan";

export const submitPlanTool = defineTool({
  name: SUBMIT_PLAN,
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  async execute(args, ctx): Promise<ToolResult> {
    if (!ctx.plans) return { output: UNANSWERED_TEXT };
    const steps: PlanStep[] = args.steps.map((step) =>
      step.detail ? { content: step.content, detail: step.detail } : { content: step.content }
    );
    const outcome = await ctx.plans.review({ summary: args.summary, steps }, ctx.signal);
    if (outcome.kind === "approved") return approved(args, outcome, ctx);
    return { output: outcomeText(outcome) };
  },
});

const UNANSWERED_TEXT =
  "Nobody can review this plan now (a headless run, or no one attached): it is recorded, " +
  "and a headless run prints it as its result. Make no changes; end your turn now with a one-line summary.";

function approved(
  args: Args,
  outcome: Extract<PlanOutcome, { kind: "approved" }>,
  ctx: ToolContext,
): ToolResult {
  const items = args.steps.map((step) => ({ content: step.content, status: "pending" as const }));
  if (ctx.state) ctx.state.todos = items;
  const text =
    `The user approved plan revision ${outcome.revision}. Plan mode is off and the permission mode ` +
    `is "${outcome.mode}" again. The steps are now your todo list; work through them, keeping it current ` +
    `with todo_write:\n${formatChecklist(items)}`;
  return { output: text, data: { kind: "todo", items: structuredClone(items) } };
}

/** What the model reads for every outcome but an approval; exported for the tests. */
export function outcomeText(outcome: PlanOutcome): string {
  switch (outcome.kind) {
    case "not_plan_mode":
      throw new ToolError(
        "plan.not_plan_mode",
        `submit_plan works in plan mode only; the permission mode is "${outcome.mode}": ` +
          "go ahead with the work, tracking its steps with todo_write",
      );
    case "cancelled":
      throw new ToolError("tool.aborted", "The turn was cancelled while the plan waited for review");
    case "unanswered":
      return `Plan revision ${outcome.revision}: ${UNANSWERED_TEXT}`;
    case "superseded":
      return `Plan revision ${outcome.revision} was replaced by revision ${outcome.by} before the user answered.`;
    case "revise":
      return `The user asked for changes to plan revision ${outcome.revision} and said: ` +
        `${JSON.stringify(outcome.feedback)}. Plan mode stays on: look into what they asked, then submit ` +
        "a revised plan with submit_plan.";
    case "rejected":
      return `The user rejected plan revision ${outcome.revision}` +
        (outcome.reason ? ` and said: ${JSON.stringify(outcome.reason)}` : "") +
        ". Plan mode stays on and nothing may change. Do not submit another plan unless the user asks; " +
        "end your turn with a short reply.";
    case "approved":
      return `The user approved plan revision ${outcome.revision}.`;
  }
}
