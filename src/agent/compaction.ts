/**
 * @module
 * Context compaction, the only prefix reset: one extra request that replays the exact current prefix
 * (so it hits the cache) plus a request for a summary, whose answer replaces the conversation after
 * the system prompt and the session-context message.
 */
import type { ChatMessage, ChatRequest, ChatResult, Provider, UserMessage } from "../provider/provider.ts";
import type { ReasonixEvent } from "./events.ts";

export const DEFAULT_COMPACT_RATIO = 0.8;

export type CompactionReason = "context_limit" | "manual";

export const SUMMARY_OPEN = "<compacted-summary>";
export const SUMMARY_CLOSE = "</compacted-summary>";

export const SUMMARY_REQUEST = "[compaction] The conversation is about to be replaced by a summary. Do not " +
  "call any tools. Write a concise, faithful summary of the conversation so far that lets you continue " +
  "without it: the user's goal, decisions made and why, files read or changed (with paths), the current " +
  "state, and the open work with the next step. Reply with the summary only.";

const ENCODER = new TextEncoder();

/** A rough token count: UTF-8 bytes of the serialised messages (plus extra text) over 4. */
export function estimateTokens(messages: readonly ChatMessage[], extra = ""): number {
  const bytes = ENCODER.encode(JSON.stringify(messages)).length + ENCODER.encode(extra).length;
  return Math.ceil(bytes / 4);
}

/** How many leading messages a compaction keeps: the system prompt, the session context, an older summary. */
export function compactionBase(history: readonly ChatMessage[]): number {
  const third = history[2];
  return third?.role === "user" && third.content.startsWith(SUMMARY_OPEN) ? 3 : 2;
}

/** Compacting is pointless until the model has answered at least once since the last reset. */
export function hasWorkSinceBase(history: readonly ChatMessage[]): boolean {
  return history.slice(compactionBase(history)).some((message) => message.role === "assistant");
}

export function compactedHistory(history: readonly ChatMessage[], summary: string): ChatMessage[] {
  return [
    ...history.slice(0, 2),
    { role: "user", content: `${SUMMARY_OPEN}\n${summary}\n${SUMMARY_CLOSE}` },
  ];
}

export interface SummaryOptions {
  provider: Provider;
  request: Omit<ChatRequest, "messages">;
  history: readonly ChatMessage[];
  signal: AbortSignal;
  emit: (event: ReasonixEvent) => void;
}

export interface SummaryResult {
  prompt: UserMessage;
  result: ChatResult;
  /** The trimmed text of the answer; tool calls in it are ignored. */
  summary: string;
}

export async function requestSummary(options: SummaryOptions): Promise<SummaryResult> {
  const prompt: UserMessage = { role: "user", content: SUMMARY_REQUEST };
  const result = await options.provider.stream(
    { ...options.request, messages: [...options.history, prompt] },
    {
      signal: options.signal,
      onEvent: (event) => {
        if (event.type !== "retry") return;
        const { attempt, maxAttempts, delayMs, reason } = event;
        options.emit({ type: "retrying", attempt, maxAttempts, delayMs, reason });
      },
    },
  );
  return { prompt, result, summary: (result.message.content ?? "").trim() };
}
