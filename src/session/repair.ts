/**
 * @module
 * Keeps a stored conversation valid for the provider after a kill, a crash or a failed turn: every
 * tool call is answered right after its assistant message, and a turn that ended without a reply is
 * closed in a way DeepSeek's thinking-mode replay rule accepts.
 */
import { compactionBase, isTransientBlock } from "../agent/compaction.ts";
import type { AssistantMessage, ChatMessage, ToolMessage } from "../provider/provider.ts";

export const INTERRUPTED_RESULT = "[no result: the previous turn was interrupted]";
export const INTERRUPTED_REASON = "the process running it stopped";

/**
 * The history with each tool call's result placed right after its assistant message (in stored
 * order), a synthetic result for a call that has none, and results that answer no call dropped. A
 * valid history comes back unchanged, so replayed bytes stay the same.
 */
export function repairHistory(messages: readonly ChatMessage[]): ChatMessage[] {
  const used = new Set<number>();
  const repaired: ChatMessage[] = [];
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") continue;
    repaired.push(message);
    if (message.role !== "assistant" || !message.tool_calls?.length) continue;
    const results = resultsFor(messages, index, used);
    repaired.push(...results);
    const answered = new Set(results.map((result) => result.tool_call_id));
    for (const call of message.tool_calls) {
      if (!answered.has(call.id)) repaired.push(syntheticResult(call.id, call.function.name));
    }
  }
  return sameMessages(messages, repaired) ? [...messages] : repaired;
}

/** The note `closingMessages` ends a turn with. */
export const CLOSING_NOTE = /^\[This turn ended without a reply/;

/**
 * What closes a turn that ended without a reply: results for the last assistant message's unanswered
 * calls, then a note. Inside a turn that called tools the note carries an empty `reasoning_content`:
 * in thinking mode every assistant message of such a turn must carry the key, or the next request is
 * rejected.
 */
export function closingMessages(
  history: readonly ChatMessage[],
  options: { reason: string; result: string },
): ChatMessage[] {
  const closing: ChatMessage[] = [];
  const lastCall = history.findLastIndex((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0);
  const last = history[lastCall];
  if (last?.role === "assistant" && lastCall > history.findLastIndex((m) => m.role === "user")) {
    const answered = new Set(
      history.slice(lastCall + 1).flatMap((m) => m.role === "tool" ? [m.tool_call_id] : []),
    );
    for (const call of last.tool_calls ?? []) {
      if (!answered.has(call.id)) {
        closing.push({
          role: "tool",
          content: options.result,
          tool_call_id: call.id,
          name: call.function.name,
        });
      }
    }
  }
  const note: AssistantMessage = {
    role: "assistant",
    content: `[This turn ended without a reply: ${options.reason}]`,
  };
  if (turnCalledTools(history)) note.reasoning_content = "";
  return [...closing, note];
}

/**
 * The messages to append to a session that a killed process left mid-turn (its last turn has no final
 * reply: killed before the first reply, or after a tool call); empty when the last turn is closed.
 */
export function interruptedTail(history: readonly ChatMessage[]): ChatMessage[] {
  const last = history.at(-1);
  // Without a note the next turn's user message would follow this one; the session context and a
  // compaction's digests and recent-requests block are user messages that open the history, not turns.
  const unanswered = last?.role === "user" && history.length > compactionBase(history) &&
    !isTransientBlock(last);
  if (unanswered) return closingMessages(history, { reason: INTERRUPTED_REASON, result: INTERRUPTED_RESULT });
  if (!turnCalledTools(history)) return [];
  if (last?.role === "assistant" && !last.tool_calls?.length) return [];
  return closingMessages(history, { reason: INTERRUPTED_REASON, result: INTERRUPTED_RESULT });
}

function turnCalledTools(history: readonly ChatMessage[]): boolean {
  const start = history.findLastIndex((m) => m.role === "user");
  return history.slice(start + 1).some((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0);
}

/** The first unused result for each call, looked for up to the next assistant message that calls tools. */
function resultsFor(messages: readonly ChatMessage[], at: number, used: Set<number>): ToolMessage[] {
  const assistant = messages[at] as AssistantMessage;
  const wanted = new Set(assistant.tool_calls?.map((call) => call.id));
  const results: ToolMessage[] = [];
  for (let index = at + 1; index < messages.length && wanted.size > 0; index++) {
    const message = messages[index]!;
    if (message.role === "assistant" && message.tool_calls?.length) break;
    if (message.role !== "tool" || used.has(index) || !wanted.has(message.tool_call_id)) continue;
    used.add(index);
    wanted.delete(message.tool_call_id);
    results.push(message);
  }
  return results;
}

function syntheticResult(id: string, name: string): ToolMessage {
  return { role: "tool", content: INTERRUPTED_RESULT, tool_call_id: id, name };
}

function sameMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  return a.length === b.length && a.every((message, index) => message === b[index]);
}
