/**
 * @module
 * The approval desk as a tool's `consent`: one card per call, asked in every permission mode, with no
 * rule to remember ("always allow" grants nothing), so the next such call asks again.
 */
import type { Consent, ConsentAnswer, ConsentAsk } from "../tool/consent.ts";
import type { ApprovalAsk, Approvals } from "./approvals.ts";

export function humanConsent(approvals: Approvals | undefined, interactive: boolean): Consent {
  return {
    interactive: interactive && approvals !== undefined,
    confirm: (ask, signal) => confirm(approvals, ask, signal),
  };
}

function confirm(
  approvals: Approvals | undefined,
  ask: ConsentAsk,
  signal: AbortSignal,
): Promise<ConsentAnswer> {
  return askOnce(approvals, {
    callId: ask.callId,
    tool: ask.tool,
    arguments: ask.arguments,
    subject: ask.subject,
    preview: null,
    explanation: {
      decision: "ask",
      tier: "read",
      rule: null,
      reason: `${ask.reason} (an approval covers this call only)`,
    },
    suggestedRule: null,
  }, signal);
}

/** One approval card that grants nothing beyond itself; no approval desk (headless) cannot answer. */
export async function askOnce(
  approvals: Approvals | undefined,
  card: ApprovalAsk,
  signal: AbortSignal,
): Promise<ConsentAnswer> {
  if (!approvals) return { kind: "unanswerable" };
  const answer = await approvals.request(card, signal);
  if (answer === null) return { kind: "unanswerable" };
  if (answer === "cancelled") return { kind: "cancelled" };
  if (answer.choice === "deny") {
    return { kind: "declined", ...(answer.reason ? { reason: answer.reason } : {}) };
  }
  return { kind: "approved" };
}
