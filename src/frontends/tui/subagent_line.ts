/**
 * @module
 * One line for a subagent starting or ending, shared by the TUI transcript and line mode; its tool
 * calls are left out (its own session holds them). Text from the model is stripped of controls.
 */
import type { ReasonixEvent } from "../../control/mod.ts";
import { t } from "../../lib/i18n/mod.ts";
import { sanitize } from "./components/format.ts";

type SubagentEvent = Extract<ReasonixEvent, { type: "subagent" }>;

const PREVIEW_CHARS = 160;

export function subagentLine(event: SubagentEvent): string | null {
  const id = event.sessionId;
  if (event.phase === "started") {
    return t("notice.subagent_started", { id, description: oneLine(event.description) });
  }
  if (event.phase !== "done") return null;
  const outcome = event.ok ? "done" : "failed";
  return t("notice.subagent_done", { id, outcome, preview: oneLine(event.preview ?? "") });
}

function oneLine(text: string): string {
  const flat = sanitize(text).replace(/\s+/g, " ").trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}
