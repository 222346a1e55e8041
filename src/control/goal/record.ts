/**
 * @module
 * A goal's state changes as plain functions over its snapshot: a new goal, how a stored one loads, a
 * stop with its cause, a resume (with one more budget after a budget stop), and the `/goal status` text.
 */
import type { GoalSnapshot } from "../events.ts";
import type { Goal } from "../../tool/session_state.ts";
import { classifyGoal, GOAL_BUDGETS } from "./budget.ts";
import { stripControls } from "../../lib/terminal_text.ts";
import { t } from "../../lib/i18n/mod.ts";

export const NO_PROGRESS_LIMIT = 4;

export type StopCause =
  | "budget"
  | "no_progress"
  | "blocked"
  | "needs_user"
  | "paused"
  | "interrupted"
  | "error"
  | "balance"
  | "stopped";

export function newGoal(objective: string, id: string): GoalSnapshot {
  const category = classifyGoal(objective);
  return {
    id,
    objective,
    revision: 1,
    status: "active",
    category,
    turns: 0,
    budget: GOAL_BUDGETS[category],
    tokens: 0,
    noProgress: 0,
    noProgressLimit: NO_PROGRESS_LIMIT,
    extensions: 0,
  };
}

/**
 * A stored goal as this process takes it up: one paused by its budget is blocked by it (the user decides
 * whether to extend), and one left active by a process that ended mid-turn is paused as interrupted.
 */
export function loadedGoal(goal: GoalSnapshot): GoalSnapshot {
  if (goal.status === "paused" && goal.stopCause === "budget") return { ...goal, status: "blocked" };
  if (goal.status === "active") return { ...goal, status: "paused", stopCause: "interrupted" };
  return goal;
}

const STATUS_OF: Record<StopCause, GoalSnapshot["status"]> = {
  budget: "paused",
  no_progress: "blocked",
  blocked: "blocked",
  needs_user: "paused",
  paused: "paused",
  interrupted: "paused",
  error: "paused",
  balance: "blocked",
  stopped: "stopped",
};

export function halted(goal: GoalSnapshot, cause: StopCause, detail?: string): GoalSnapshot {
  const next: GoalSnapshot = { ...goal, status: STATUS_OF[cause], stopCause: cause };
  if (detail === undefined) delete next.detail;
  else next.detail = detail;
  return next;
}

/** Active again; after a budget stop with one more budget of its category, after a no-progress stop with a fresh count. */
export function resumed(goal: GoalSnapshot): GoalSnapshot {
  const next: GoalSnapshot = { ...goal, status: "active" };
  if (goal.stopCause === "budget" || goal.turns >= goal.budget) {
    next.budget += GOAL_BUDGETS[goal.category];
    next.extensions++;
  }
  if (goal.stopCause === "no_progress") next.noProgress = 0;
  delete next.stopCause;
  delete next.detail;
  return next;
}

/** What `update_goal` sees and changes in the tools' shared state. */
export function toolGoal(goal: GoalSnapshot): Goal {
  return { id: goal.id, objective: goal.objective, revision: goal.revision, status: "active" };
}

/** The `/goal status` lines; model- or user-written text is stripped of terminal controls. */
export function statusText(goal: GoalSnapshot): string {
  const cause = goal.stopCause ? ` (${causeText(goal)})` : "";
  return [
    `goal: ${stripControls(goal.objective)}`,
    `status: ${goal.status}${cause}`,
    `category: ${goal.category}`,
    `runtime: turns ${goal.turns}/${goal.budget}, tokens ${goal.tokens}, ` +
    `no-progress ${goal.noProgress}/${goal.noProgressLimit}, extensions ${goal.extensions}`,
  ].join("\n");
}

const CAUSES: Record<StopCause, string> = {
  budget: "turn budget used; /goal resume adds one more budget",
  no_progress: "no host-verifiable progress in a row; /goal resume tries again",
  blocked: "blocked",
  needs_user: "a decision needs you: answer, then /goal resume",
  paused: "paused; /goal resume continues",
  interrupted: "interrupted; /goal resume continues",
  error: "a turn failed; /goal resume continues",
  balance: "the account balance is used up: top it up, then /goal resume",
  stopped: "stopped",
};

export function causeText(goal: GoalSnapshot): string {
  const base = CAUSES[goal.stopCause as StopCause] ?? stripControls(goal.stopCause ?? "");
  return goal.detail ? `${base}: ${stripControls(goal.detail)}` : base;
}

/** One line for a `goal_updated` event, the same in every face. */
export function goalEventText(goal: GoalSnapshot): string {
  const objective = stripControls(goal.objective);
  const { turns, budget } = goal;
  if (goal.status === "complete") return t("goal.complete", { turns, objective });
  if (goal.status !== "active") {
    return t("goal.halted", { status: goal.status, turns, cause: causeText(goal) });
  }
  if (turns === 0) {
    return t("goal.started", { category: goal.category, budget, objective });
  }
  return t("goal.turn", { turns, budget, noProgress: goal.noProgress, limit: goal.noProgressLimit });
}
