/**
 * @module
 * An approval in line mode (standard input a terminal): the call printed with its reason and four
 * numbered choices, answered by the next input line. A digit picks a choice, any other text denies with
 * that text as the reason, an empty line or the end of input denies.
 */
import type { ApprovalChoice, ApprovalRequest } from "../../control/mod.ts";
import { type MessageKey, t } from "../../lib/i18n/mod.ts";
import { oneLine, reveal, sanitize } from "./components/format.ts";
import type { NextLine } from "./line_questions.ts";
import { approvalTitle } from "./approval_title.ts";

const CHOICES: readonly [ApprovalChoice, MessageKey][] = [
  ["allow_once", "approval.allow_once"],
  ["allow_session", "approval.allow_session"],
  ["allow_always", "approval.allow_always"],
  ["deny", "approval.deny"],
];

export interface LineApproval {
  choice: ApprovalChoice;
  reason?: string;
}

export async function answerApprovalOnLines(
  request: ApprovalRequest,
  next: NextLine,
  write: (text: string) => void,
): Promise<LineApproval> {
  write(approvalText(request));
  const line = (await next())?.trim() ?? "";
  const picked = /^[1-4]$/.test(line) ? CHOICES[Number(line) - 1]![0] : null;
  if (picked) return { choice: picked };
  return line ? { choice: "deny", reason: line } : { choice: "deny" };
}

function approvalText(request: ApprovalRequest): string {
  const subject = oneLine(reveal(request.subject ?? request.arguments));
  return [
    `? ${approvalTitle(request)} ${subject}`,
    ...(request.destructive ? [`  ${t("approval.destructive")}`] : []),
    `  ${sanitize(request.explanation.reason)}`,
    `  ${CHOICES.map(([, label], i) => `${i + 1}) ${t(label)}`).join("  ")}`,
    `${t("approval.line_prompt")} `,
  ].join("\n");
}
