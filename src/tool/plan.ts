/**
 * @module
 * What the `submit_plan` tool puts to a person in plan mode and what comes back. The tool only sees a
 * `PlanReviewer`; the Controller's plan desk decides whether anyone is there and binds each answer to
 * one revision of the plan.
 */

export interface PlanStep {
  content: string;
  detail?: string;
}

/** One revision of a plan; revisions count up through the session, an answer names the one it saw. */
export interface ProposedPlan {
  revision: number;
  summary: string;
  steps: PlanStep[];
}

/** How a person answers a plan card; `revise` carries what should change. */
export type PlanDecision = "approve" | "revise" | "reject";

/**
 * `approved`: plan mode is off and `mode` applies; `unanswered`: nobody can review here (headless);
 * `superseded`: a later revision replaced it; `not_plan_mode`: the session is not in plan mode.
 */
export type PlanOutcome =
  | { kind: "approved"; revision: number; mode: string }
  | { kind: "revise"; revision: number; feedback: string }
  | { kind: "rejected"; revision: number; reason?: string }
  | { kind: "unanswered"; revision: number }
  | { kind: "superseded"; revision: number; by: number }
  | { kind: "cancelled" }
  | { kind: "not_plan_mode"; mode: string };

export interface PlanReviewer {
  review(plan: { summary: string; steps: PlanStep[] }, signal: AbortSignal): Promise<PlanOutcome>;
}
