/**
 * @module
 * `reasonix run --permission-mode plan`: nobody can approve a plan in a headless run, so the last plan
 * the model submitted is the run's result (text: printed after the answer; json: `result` and `plan`).
 * Nothing was written: plan mode refused every writer.
 */
import { planText, type ProposedPlan, type ReasonixEvent, type TurnOutcome } from "../../control/mod.ts";

export interface PlanWatch {
  listener(event: ReasonixEvent): void;
  plan(): ProposedPlan | null;
}

export function watchPlans(): PlanWatch {
  let last: ProposedPlan | null = null;
  return {
    listener(event) {
      if (event.type === "plan_resolved" && event.outcome === "unanswered") last = event.plan;
    },
    plan: () => last,
  };
}

/** The turn's outcome with the plan as its result; unchanged when there is no plan or the turn failed. */
export function planOutcome(outcome: TurnOutcome, plan: ProposedPlan | null): TurnOutcome {
  if (!plan || outcome.subtype !== "success") return outcome;
  return { ...outcome, result: planBody(plan) };
}

/** The plan without the card heading: what a script reads. */
export function planBody(plan: ProposedPlan): string {
  return planText(plan).split("\n").slice(1).join("\n");
}
