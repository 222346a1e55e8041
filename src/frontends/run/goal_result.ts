/**
 * @module
 * `reasonix run --goal`: the run's outcome and the `goal` object of its JSON result, from how the goal
 * ended. Complete is success; any other end is a failure whose code names the cause (`goal.budget`,
 * `goal.no_progress`, `goal.blocked`, `goal.needs_user`...), so a script can tell them apart.
 */
import type { GoalSnapshot, ReasonixEvent, TurnOutcome } from "../../control/mod.ts";
import { goalStatusText } from "../../control/mod.ts";

/** Keeps the answer of the goal's last turn (the run's `result` text). */
export function lastAnswer(): { listener: (event: ReasonixEvent) => void; text(): string } {
  let text = "";
  return {
    listener(event) {
      if (event.type === "turn_done") text = event.result;
    },
    text: () => text,
  };
}

export function goalOutcome(goal: GoalSnapshot, answer: string): TurnOutcome {
  if (goal.status === "complete") return { subtype: "success", result: answer };
  const cause = goal.stopCause ?? goal.status;
  const message = goalStatusText(goal).split("\n").find((line) => line.startsWith("status:")) ?? cause;
  return {
    subtype: "error_during_execution",
    result: answer || message,
    error: { code: `goal.${cause}`, message: `Goal ${goal.status}: ${message.slice("status: ".length)}` },
  };
}

/** The result's `goal` object (snake_case like the rest of the result). */
export function goalResult(goal: GoalSnapshot): Record<string, unknown> {
  return {
    id: goal.id,
    status: goal.status,
    ...(goal.stopCause ? { stop_cause: goal.stopCause } : {}),
    ...(goal.detail ? { detail: goal.detail } : {}),
    category: goal.category,
    turns: goal.turns,
    budget: goal.budget,
    tokens: goal.tokens,
    no_progress: goal.noProgress,
    extensions: goal.extensions,
  };
}
