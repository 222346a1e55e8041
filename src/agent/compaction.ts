/**
 * @module
 * Context compaction, the only deliberate prefix reset. What a compaction keeps (see
 * `compaction_plan.ts`): the system prompt, the session-context message, every earlier digest verbatim,
 * then one new digest (the user's own messages verbatim plus a model summary of the rest), then the
 * recent tail of whole turns; the summary request itself lives in `summary.ts`.
 */
import type { ChatMessage } from "../provider/provider.ts";

export const DEFAULT_COMPACT_RATIO = 0.8;
export const DEFAULT_COMPACT_FORCE_RATIO = 0.9;
export const DEFAULT_SNIP_RATIO = 0.6;

export type CompactionReason = "context_limit" | "manual" | "forced";

export const SUMMARY_OPEN = "<compacted-summary>";
export const SUMMARY_CLOSE = "</compacted-summary>";
/** Opens the message after the digests that carries the user's latest requests; the next compaction replaces it. */
export const RECENT_OPEN = "<recent-requests>";
export const RECENT_CLOSE = "</recent-requests>";
/** Opens the message after the digests with instruction files that changed on disk since the session began. */
export const INSTRUCTIONS_OPEN = "<instructions-update>";

/** Every summary prompt starts with this tag, so a replayed log can tell the request from a turn. */
export const SUMMARY_TAG = "[compaction]";

export const SUMMARY_REQUEST =
  `${SUMMARY_TAG} The conversation is about to be replaced by a summary. Tools ` +
  "are disabled for this reply. Write a concise, faithful summary of the conversation since the last " +
  "digest that lets you continue without it: the user's goal, decisions made and why, files read or " +
  "changed (with paths), the current state, and the open work with the next step. The user's own " +
  "messages and earlier digests are kept word for word beside your summary: do not copy them. Reply " +
  "with the summary only, as plain text.";

export const STRICT_SUMMARY_REQUEST = `${SUMMARY_TAG} Your previous reply held no summary text. Do not ` +
  "call any tool and do not think at length: reply now with plain text only, at most 30 lines, " +
  "summarising the work since the last digest (goal, decisions, files, state, next step).";

/** A summary prompt, with the user's `/compact` focus when there is one. */
export function summaryPrompt(strict: boolean, focus?: string): string {
  const base = strict ? STRICT_SUMMARY_REQUEST : SUMMARY_REQUEST;
  const wanted = focus?.trim();
  return wanted ? `${base}\nFocus the summary on: ${wanted}` : base;
}

export function isSummaryPrompt(content: string): boolean {
  return content.startsWith(SUMMARY_TAG);
}

const ENCODER = new TextEncoder();

/** A rough token count: UTF-8 bytes of the serialised messages (plus extra text) over 4. */
export function estimateTokens(messages: readonly ChatMessage[], extra = ""): number {
  const bytes = ENCODER.encode(JSON.stringify(messages)).length + ENCODER.encode(extra).length;
  return Math.ceil(bytes / 4);
}

export function isDigest(message: ChatMessage | undefined): boolean {
  return message?.role === "user" && message.content.startsWith(SUMMARY_OPEN);
}

export function isRecentBlock(message: ChatMessage | undefined): boolean {
  return message?.role === "user" && message.content.startsWith(RECENT_OPEN);
}

/** A message a compaction writes after the digests and the next one replaces (recent requests, instruction updates). */
export function isTransientBlock(message: ChatMessage | undefined): boolean {
  return isRecentBlock(message) ||
    (message?.role === "user" && message.content.startsWith(INSTRUCTIONS_OPEN));
}

/** How many leading messages a compaction keeps as they are: system, session context, every digest. */
export function compactionBase(history: readonly ChatMessage[]): number {
  let base = Math.min(2, history.length);
  while (isDigest(history[base])) base++;
  return base;
}

/** Compacting is pointless until the model has answered at least once since the last reset. */
export function hasWorkSinceBase(history: readonly ChatMessage[]): boolean {
  return history.slice(compactionBase(history)).some((message) => message.role === "assistant");
}
