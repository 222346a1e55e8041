/**
 * @module
 * A finished direct child's spend in the status line: its cost counts in the turn's and the session's,
 * its prompt and hit tokens in the session's cache-hit figure (as the session's resumed figures count
 * them). The context fill and the turn's hit ratio stay the session's own requests.
 */
import type { ReasonixEvent } from "../../control/mod.ts";
import type { StatusLine } from "./state.ts";

export function childSpendStatus(
  status: StatusLine,
  event: Extract<ReasonixEvent, { type: "subagent" }>,
): Partial<StatusLine> | null {
  const spent = event.phase === "spent" && event.depth === 1 ? event.spent : undefined;
  if (spent === undefined) return null;
  const plus = (total: number | null) => spent.cost === null ? total : (total ?? 0) + spent.cost;
  return {
    sessionHitTokens: status.sessionHitTokens + spent.usage.cacheHitTokens,
    sessionPromptTokens: status.sessionPromptTokens + spent.usage.promptTokens,
    costTurn: plus(status.costTurn),
    costSession: plus(status.costSession),
    currency: spent.currency ?? status.currency,
  };
}
