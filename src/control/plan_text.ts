/**
 * @module
 * A plan as plain text, the same in every face: a heading with its revision (and how it ended), the
 * summary, then the numbered steps. The text is the model's: faces escape it before a terminal shows it.
 */
import type { ReasonixEvent } from "../agent/events.ts";
import { t } from "../lib/i18n/mod.ts";
import type { ProposedPlan } from "../tool/plan.ts";

type Resolved = Extract<ReasonixEvent, { type: "plan_resolved" }>;

export function planText(
  plan: ProposedPlan,
  resolved?: Pick<Resolved, "outcome" | "feedback" | "mode">,
): string {
  const heading = resolved
    ? t(`plan.outcome_${resolved.outcome}`, { revision: plan.revision, mode: resolved.mode ?? "" })
    : t("plan.card_title", { revision: plan.revision });
  const steps = plan.steps.map((step, i) =>
    `${i + 1}. ${step.content}${step.detail ? ` — ${step.detail}` : ""}`
  );
  const feedback = resolved?.feedback ? [`> ${resolved.feedback}`] : [];
  return [heading, plan.summary, ...steps, ...feedback].join("\n");
}
