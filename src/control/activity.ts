/**
 * @module
 * What a running turn is doing, for the spinner line: thinking, writing, running a tool, waiting for
 * the user or for a retry; since when; and how many tokens the model produced so far (counted by the
 * provider once a request ends, estimated from the streamed characters until then).
 */
import type { ReasonixEvent } from "./events.ts";
import { t } from "../lib/i18n/mod.ts";
import { escapeControls } from "../lib/terminal_text.ts";

export type Phase = "waiting" | "thinking" | "writing" | "tool" | "approval" | "question" | "retrying";

export interface Activity {
  /** Date.now() when the turn started. */
  startedAt: number;
  phase: Phase;
  /** The running tool's name, for `tool` and `approval`. */
  tool: string | null;
  /** Completion tokens of this turn's finished requests. */
  tokens: number;
  /** Characters streamed since the last finished request. */
  streamed: number;
}

/** A rough characters-per-token figure, only for the live estimate between usage reports. */
const CHARS_PER_TOKEN = 4;

export function nextActivity(
  activity: Activity | null,
  event: ReasonixEvent,
  now = Date.now(),
): Activity | null {
  if (event.type === "turn_started") {
    return { startedAt: now, phase: "waiting", tool: null, tokens: 0, streamed: 0 };
  }
  if (!activity) return null;
  switch (event.type) {
    case "reasoning":
      return { ...activity, phase: "thinking", streamed: activity.streamed + event.text.length };
    case "text":
      return { ...activity, phase: "writing", streamed: activity.streamed + event.text.length };
    case "usage":
      return { ...activity, tokens: activity.tokens + event.usage.completionTokens, streamed: 0 };
    case "tool_call":
      return { ...activity, phase: "tool", tool: event.name };
    case "tool_result":
      return { ...activity, phase: "waiting", tool: null };
    case "approval_requested":
      return { ...activity, phase: "approval", tool: event.request.tool };
    case "approval_resolved":
      return { ...activity, phase: "tool" };
    case "question_asked":
      return { ...activity, phase: "question" };
    case "question_resolved":
      return { ...activity, phase: "tool" };
    case "retrying":
      return { ...activity, phase: "retrying" };
    case "turn_done":
      return null;
    default:
      return activity;
  }
}

export function activityTokens(activity: Activity): number {
  return activity.tokens + Math.round(activity.streamed / CHARS_PER_TOKEN);
}

const PHASE_KEYS = {
  waiting: "activity.waiting",
  thinking: "activity.thinking",
  writing: "activity.writing",
  tool: "activity.tool",
  approval: "activity.approval",
  question: "activity.question",
  retrying: "activity.retrying",
} as const;

/**
 * `12,345`, as en-US groups digits. Not `Intl.NumberFormat`: building one costs 40–80 ms (ICU data) at
 * the start of every session, and `toLocaleString` builds one per call, several times per frame.
 */
function groupDigits(count: number): string {
  return String(Math.round(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** `⠹ running bash · 12s · ↓ 340 tokens`; `frame` advances the spinner. */
export function activityText(activity: Activity, now: number, frame: number): string {
  const seconds = Math.max(0, Math.floor((now - activity.startedAt) / 1000));
  const elapsed = seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m ${seconds % 60}s`;
  // The tool name is the model's output: its terminal controls are shown as marks, never sent.
  const what = t(PHASE_KEYS[activity.phase], { tool: escapeControls(activity.tool ?? "") });
  const tokens = activityTokens(activity);
  const count = tokens > 0 ? ` · ${t("activity.tokens", { count: groupDigits(tokens) })}` : "";
  return `${FRAMES[frame % FRAMES.length]} ${what} · ${elapsed}${count}`;
}
