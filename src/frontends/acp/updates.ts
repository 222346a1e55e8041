/**
 * @module
 * The Controller's events as ACP `session/update`s. The same function renders a live turn and a stored
 * session replayed by `session/load`: replayed reasoning and text arrive whole, live ones as deltas.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { goalEventText, type ReasonixEvent } from "../../control/mod.ts";
import { planOf, toolCallEnd, toolCallProgress, toolCallStart } from "./tool_calls.ts";

function text(
  sessionUpdate: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk",
  body: string,
) {
  return { sessionUpdate, content: { type: "text" as const, text: body } };
}

/**
 * `replay`: the event comes from the stored session (a user turn is shown, as the editor did not send
 * it in this connection); live, the editor already shows what it sent.
 */
export function updatesOf(
  event: ReasonixEvent,
  options: { root: string; replay: boolean },
): acp.SessionUpdate[] {
  switch (event.type) {
    case "turn_started":
      return options.replay ? [text("user_message_chunk", event.text)] : [];
    case "steered":
      return [text("user_message_chunk", event.text)];
    case "reasoning":
      return event.text ? [text("agent_thought_chunk", event.text)] : [];
    case "text":
      return event.text ? [text("agent_message_chunk", event.text)] : [];
    case "tool_call":
      return [toolCallStart(event, options.root)];
    case "tool_progress":
      return [toolCallProgress(event)];
    case "tool_result": {
      const plan = planOf(event);
      return [toolCallEnd(event, options.root), ...(plan ? [plan] : [])];
    }
    case "command_output":
      return [text("agent_message_chunk", event.text.endsWith("\n") ? event.text : `${event.text}\n`)];
    case "warning":
      return options.replay ? [] : [text("agent_message_chunk", `\nwarning: ${event.message}\n`)];
    case "subagent":
      return options.replay || event.phase === "tool" || event.phase === "spent"
        ? []
        : [text("agent_thought_chunk", subagentNote(event))];
    case "plan_resolved":
      // An approval ended plan mode: the editor's mode picker follows.
      return !options.replay && event.mode
        ? [{ sessionUpdate: "current_mode_update", currentModeId: event.mode }]
        : [];
    case "goal_updated":
      return options.replay ? [] : [text("agent_message_chunk", `\n${goalEventText(event.goal)}\n`)];
    case "turn_done":
      return !options.replay && event.error && event.error.code !== "turn.interrupted"
        ? [text("agent_message_chunk", `\nerror: ${event.error.message}\n`)]
        : [];
    default:
      return [];
  }
}

function subagentNote(event: Extract<ReasonixEvent, { type: "subagent" }>): string {
  const what = event.phase === "started"
    ? `started: ${event.description}`
    : `${event.ok ? "done" : "failed"}`;
  return `\n[subagent ${event.sessionId} ${what}]\n`;
}
