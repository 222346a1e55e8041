import { z } from "zod";
import type { Goal } from "../session_state.ts";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import { requireState } from "./_todo_list.ts";

const DESCRIPTION =
  `Update the session goal: edit, pause, resume, complete (only when its objective is met) or blocked (with blocked_reason). Pass goal_id and its current revision; a stale revision is refused.`;

const ACTIONS = ["edit", "pause", "resume", "complete", "blocked"] as const;
type Action = (typeof ACTIONS)[number];
type Status = Goal["status"];

const parameters = z.object({
  goal_id: z.string().min(1).describe("The goal's id"),
  revision: z.number().int().min(1).describe("Its current revision"),
  action: z.enum(ACTIONS),
  objective: z.string().trim().min(1).optional().describe('The new objective (action "edit")'),
  max_goal_rounds: z.number().int().min(1).nullable().optional().describe(
    'The new round limit, or null for none (action "edit")',
  ),
  blocked_reason: z.string().trim().min(1).optional().describe(
    'What blocks the goal and what would unblock it (required for action "blocked")',
  ),
});

type Args = z.infer<typeof parameters>;

/** The statuses each action may start from, and the status it leaves (null: unchanged). */
const TRANSITIONS: Record<Action, { from: readonly Status[]; to: Status | null }> = {
  edit: { from: ["active", "paused", "blocked"], to: null },
  pause: { from: ["active", "blocked"], to: "paused" },
  resume: { from: ["paused", "blocked"], to: "active" },
  complete: { from: ["active", "paused", "blocked"], to: "complete" },
  blocked: { from: ["active", "paused", "blocked"], to: "blocked" },
};

const VERBS: Record<Action, string> = {
  edit: "edit",
  pause: "pause",
  resume: "resume",
  complete: "complete",
  blocked: "block",
};

export const updateGoalTool = defineTool({
  name: "update_goal",
  description: DESCRIPTION,
  parameters,
  // The Go contract marks it as a writer: it changes what the session is working towards.
  readOnly: false,
  execute(args, ctx) {
    // The executor turns a synchronous throw into a rejection.
    return new Promise((resolve) => resolve(updateGoal(args, ctx)));
  },
});

function updateGoal(args: Args, ctx: ToolContext): ToolResult {
  const state = requireState(ctx, "update the goal");
  const goal = currentGoal(state.goal, args);
  const verb = `Cannot ${VERBS[args.action]} goal "${goal.id}"`;
  if (!TRANSITIONS[args.action].from.includes(goal.status)) {
    throw new ToolError("tool.invalid_goal_action", `${verb}: it is ${goal.status}`);
  }
  checkArgs(args, verb);
  const updated = applyAction(goal, args);
  state.goal = updated;
  const data = {
    kind: "goal" as const,
    id: updated.id,
    objective: updated.objective,
    status: updated.status,
  };
  return { output: describeGoal(updated), data };
}

function currentGoal(goal: Goal | null, args: Args): Goal {
  if (goal === null) {
    throw new ToolError(
      "tool.no_goal",
      `Cannot update goal "${args.goal_id}": this session has no running goal; goals are started with /goal or reasonix run --goal`,
    );
  }
  if (goal.id !== args.goal_id) {
    throw new ToolError(
      "tool.goal_mismatch",
      `Cannot update goal "${args.goal_id}": the current goal is "${goal.id}" at revision ${goal.revision}`,
    );
  }
  if (goal.revision !== args.revision) {
    throw new ToolError(
      "tool.stale_goal_revision",
      `Cannot update goal "${goal.id}" at revision ${args.revision}: it is at revision ${goal.revision}; ` +
        `retry with revision ${goal.revision} if the change still applies`,
    );
  }
  return goal;
}

function checkArgs(args: Args, verb: string): void {
  const edits = args.objective !== undefined || args.max_goal_rounds !== undefined;
  if (args.action === "edit" && !edits) {
    throw new ToolError("tool.invalid_args", `${verb}: give objective, max_goal_rounds or both`);
  }
  if (args.action !== "edit" && edits) {
    throw new ToolError(
      "tool.invalid_args",
      `${verb}: objective and max_goal_rounds are only for action "edit"`,
    );
  }
  if (args.action === "blocked" && args.blocked_reason === undefined) {
    throw new ToolError("tool.invalid_args", `${verb}: blocked_reason is required`);
  }
  if (args.action !== "blocked" && args.blocked_reason !== undefined) {
    throw new ToolError("tool.invalid_args", `${verb}: blocked_reason is only for action "blocked"`);
  }
}

function applyAction(goal: Goal, args: Args): Goal {
  const status = TRANSITIONS[args.action].to ?? goal.status;
  const updated: Goal = { ...goal, status, revision: goal.revision + 1 };
  if (args.objective !== undefined) updated.objective = args.objective;
  if (args.max_goal_rounds !== undefined) updated.maxGoalRounds = args.max_goal_rounds;
  if (args.blocked_reason !== undefined) updated.blockedReason = args.blocked_reason;
  if (status !== "blocked") delete updated.blockedReason;
  return updated;
}

function describeGoal(goal: Goal): string {
  const lines = [
    `Goal "${goal.id}" is ${goal.status} (revision ${goal.revision})`,
    `Objective: ${goal.objective}`,
  ];
  if (typeof goal.maxGoalRounds === "number") lines.push(`Round limit: ${goal.maxGoalRounds}`);
  if (goal.blockedReason !== undefined) lines.push(`Blocked: ${goal.blockedReason}`);
  return lines.join("\n");
}
