/**
 * @module
 * The transcript line an answered approval leaves ("Allowed once: bash npm test"): the TUI adds it when a
 * card is answered, and a replayed session shows the same line from its `approval_asked` and
 * `approval_answered` entries, so a resumed transcript reads as it did live.
 */
import type { ApprovalChoice } from "../agent/events.ts";
import { t } from "../lib/i18n/mod.ts";
import type { MessageKey } from "../lib/i18n/mod.ts";

const KEYS: Record<ApprovalChoice, MessageKey> = {
  allow_once: "approval.past_allow_once",
  allow_session: "approval.past_allow_session",
  allow_always: "approval.past_allow_always",
  deny: "approval.past_deny",
};
/** A long or multi-line subject (a bash script) shows its first line, cut here. */
const SUBJECT_MAX = 100;

export function approvalLine(
  asked: { tool: string; subject: string | null },
  answer: { choice: string; cancelled?: boolean; reason?: string },
): string {
  const first = (asked.subject ?? "").split("\n")[0]!.trim();
  const subject = first.length > SUBJECT_MAX ? `${first.slice(0, SUBJECT_MAX - 1)}…` : first;
  const call = subject ? `${asked.tool} ${subject}` : asked.tool;
  if (answer.cancelled) return t("approval.past_cancelled", { call });
  const key = KEYS[answer.choice as ApprovalChoice] ?? KEYS.deny;
  const line = t(key, { call });
  return answer.reason ? `${line} — ${answer.reason}` : line;
}
