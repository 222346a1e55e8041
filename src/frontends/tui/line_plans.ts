/**
 * @module
 * Plan mode in line mode: the plan printed with its revision, answered by the next stdin line — 1
 * approve, 2 revise (then a line of feedback), 3 reject. An empty line or the end of input rejects.
 */
import { type PlanDecision, planText, type ProposedPlan, type ReasonixEvent } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { sanitize } from "./components/format.ts";
import type { NextLine } from "./line_questions.ts";

export interface PlanAnswer {
  decision: PlanDecision;
  feedback?: string;
}

export async function answerPlanOnLines(
  plan: ProposedPlan,
  next: NextLine,
  write: (text: string) => void,
): Promise<PlanAnswer> {
  write(`${sanitize(planText(plan))}\n${t("plan.line_prompt")} `);
  const line = (await next())?.trim() ?? "";
  if (line === "1") return { decision: "approve" };
  if (line !== "2") return { decision: "reject" };
  write(`${t("plan.line_feedback")} `);
  const feedback = (await next())?.trim() ?? "";
  return feedback ? { decision: "revise", feedback } : { decision: "reject" };
}

/** One line for how a plan ended (its steps were printed when it was proposed). */
export function planResolvedLine(event: Extract<ReasonixEvent, { type: "plan_resolved" }>): string {
  const heading = planText(event.plan, event).split("\n")[0]!;
  return `${sanitize(heading)}\n`;
}
