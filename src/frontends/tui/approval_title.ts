import type { ApprovalRequest } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { oneLine, reveal } from "./components/format.ts";

/** "Allow write_file?", or with the subagent that asks named (its task is model-written: shown escaped). */
export function approvalTitle(request: Pick<ApprovalRequest, "tool" | "agent">): string {
  const tool = reveal(request.tool);
  if (!request.agent) return t("approval.title", { tool });
  return t("approval.title_agent", { tool, agent: oneLine(reveal(request.agent)) });
}
