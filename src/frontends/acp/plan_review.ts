/**
 * @module
 * Plan mode over ACP: a plan waiting for review becomes a `session/request_permission` whose tool call
 * carries the plan text. Approve, Revise (the person says what to change in their next message; ACP
 * has no text field) or Reject; the answer names the plan's revision. A failure to get an answer
 * rejects it, so nothing runs unapproved.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { type Controller, type PlanDecision, planText, type ProposedPlan } from "../../control/mod.ts";
import type { EditorLink } from "./session.ts";

const REVISE_NOTE = "The user will say what to change in their next message; end your turn now.";

export const PLAN_OPTIONS: acp.PermissionOption[] = [
  { optionId: "approve", name: "Approve the plan", kind: "allow_once" },
  { optionId: "revise", name: "Revise (say what to change in your next message)", kind: "reject_once" },
  { optionId: "reject", name: "Reject the plan", kind: "reject_once" },
];

export async function reviewPlan(
  link: EditorLink,
  session: { id: string; controller: Controller },
  plan: ProposedPlan,
  signal: AbortSignal,
): Promise<void> {
  let decision: PlanDecision = "reject";
  try {
    const response = await link.requestPermission({
      sessionId: session.id,
      toolCall: {
        toolCallId: `plan-${plan.revision}`,
        title: `Plan · revision ${plan.revision}`,
        kind: "think",
        status: "pending",
        content: [{ type: "content", content: { type: "text", text: planText(plan) } }],
      },
      options: PLAN_OPTIONS,
    }, signal);
    const picked = response.outcome.outcome === "selected" ? response.outcome.optionId : "reject";
    if (picked === "approve" || picked === "revise") decision = picked;
  } catch (error) {
    if (!signal.aborted) {
      console.error(`reasonix acp: plan review failed: ${error instanceof Error ? error.message : error}`);
    }
  }
  session.controller.plans?.answer(plan.revision, decision, decision === "revise" ? REVISE_NOTE : undefined);
}
