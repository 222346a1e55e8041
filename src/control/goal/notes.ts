/**
 * @module
 * The text of each goal turn: a user message on the tail (the prefix never changes). The first carries
 * the objective and how to report; each continuation is a short host note with the figures.
 */
import type { GoalSnapshot } from "../events.ts";

function reportShape(goal: GoalSnapshot): string {
  const args = `{"goal_id":"${goal.id}","revision":${goal.revision},"action":"complete"}`;
  return `use_capability {"action":"call","capability_id":"tool:update_goal","arguments":${args}}`;
}

export function firstTurnText(goal: GoalSnapshot): string {
  return [
    goal.objective,
    "",
    `[goal mode] This is goal "${goal.id}" (revision ${goal.revision}). The host runs turn after turn ` +
    `(at most ${goal.budget}) until it is complete, blocked or paused; keep working, and end each turn ` +
    `with a short status. When the objective is met, report it with ${reportShape(goal)}. If only the ` +
    `user can unblock it, use action "blocked" with blocked_reason, or ask them with the ask tool. ` +
    `Progress is what the host can check: files written, todo items completed, verification commands passing.`,
  ].join("\n");
}

export function continuationText(goal: GoalSnapshot): string {
  const stalled = goal.noProgress > 0
    ? ` No host-verifiable progress for ${goal.noProgress} turn(s); the goal stops at ${goal.noProgressLimit}.`
    : "";
  return `[goal mode] Continue goal "${goal.id}" (revision ${goal.revision}), turn ${goal.turns + 1} of ` +
    `${goal.budget}.${stalled} Report with update_goal (revision ${goal.revision}) once it is complete or blocked.`;
}
