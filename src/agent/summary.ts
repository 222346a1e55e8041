/**
 * @module
 * The summary request of a compaction, bounded: it replays the session's own prefix (same system
 * prompt, same tools, calls disabled with `tool_choice: "none"`) so it hits the cache, it is trimmed
 * to fit the window before it is sent, and a reply without summary text, an overflow or a refused
 * request earns exactly one retry (stricter, smaller). At most two requests, whatever happens.
 */
import type { ChatMessage, ChatRequest, ChatResult, Provider, UserMessage } from "../provider/provider.ts";
import { ProviderError } from "../provider/errors.ts";
import { compactionBase, estimateTokens, summaryPrompt } from "./compaction.ts";
import { turnGroups } from "./compaction_plan.ts";
import type { ReasonixEvent } from "./events.ts";

/** A summary request is kept below this share of the window (the rest is room for the answer). */
const FIT_SHARE = 0.9;
/** After an overflow, the retry sends at most this share of what overflowed. */
const OVERFLOW_SHRINK = 0.6;
export const MAX_SUMMARY_REQUESTS = 2;

export interface SummaryOptions {
  provider: Provider;
  request: Omit<ChatRequest, "messages">;
  history: readonly ChatMessage[];
  signal: AbortSignal;
  emit: (event: ReasonixEvent) => void;
  /** Each answered attempt that brought no summary passes here (usage, cost); the caller records the one that did. */
  onResult: (result: ChatResult) => Promise<void>;
  /** The model's context window in tokens; without it nothing is trimmed up front. */
  window?: number;
  /** `/compact <focus>`. */
  focus?: string;
  /** The best estimate of the history's prompt tokens (tools included), to scale the bytes/4 sizes. */
  tokens?: number;
}

export type SummaryOutcome =
  | { ok: true; prompt: UserMessage; result: ChatResult; summary: string; requests: number }
  | { ok: false; reason: string; requests: number };

interface Attempt {
  history: readonly ChatMessage[];
  strict: boolean;
  toolChoice: "none" | undefined;
}

export async function requestSummary(options: SummaryOptions): Promise<SummaryOutcome> {
  let attempt: Attempt = { history: fitToWindow(options), strict: false, toolChoice: "none" };
  let reason = "";
  for (let requests = 1; requests <= MAX_SUMMARY_REQUESTS; requests++) {
    const prompt: UserMessage = { role: "user", content: summaryPrompt(attempt.strict, options.focus) };
    let result: ChatResult;
    try {
      result = await send(options, attempt, prompt);
    } catch (error) {
      if (options.signal.aborted) throw error;
      if (isOverflow(error)) {
        reason = "the summary request overflowed the context window";
        const shrunk = Math.floor(estimateTokens(attempt.history) * OVERFLOW_SHRINK);
        attempt = { ...attempt, history: fitHistory(attempt.history, shrunk), strict: true };
      } else if (error instanceof ProviderError && error.code === "provider.bad_request") {
        reason = `the provider refused the summary request: ${error.message}`;
        attempt = { ...attempt, toolChoice: undefined, strict: true };
      } else return { ok: false, reason: describe(error), requests };
      continue;
    }
    const summary = (result.message.content ?? "").trim();
    if (summary !== "") return { ok: true, prompt, result, summary, requests };
    await options.onResult(result);
    reason = (result.message.tool_calls?.length ?? 0) > 0
      ? "the summary reply called a tool instead of answering"
      : "the summary was empty";
    attempt = { ...attempt, strict: true };
  }
  return { ok: false, reason, requests: MAX_SUMMARY_REQUESTS };
}

/**
 * The history trimmed to FIT_SHARE of the window. Sizes are bytes/4 estimates scaled by the caller's better
 * figure (`tokens`: the provider's last count plus what came since), so a history that fits is sent whole.
 */
function fitToWindow(options: SummaryOptions): readonly ChatMessage[] {
  if (!options.window) return options.history;
  const rough = estimateTokens(options.history, options.request.toolsJson);
  const scale = options.tokens && options.tokens > 0 ? options.tokens / rough : 1;
  const budget = Math.floor(options.window * FIT_SHARE / scale) -
    estimateTokens([], options.request.toolsJson);
  return fitHistory(options.history, budget);
}

function send(options: SummaryOptions, attempt: Attempt, prompt: UserMessage): Promise<ChatResult> {
  const request: ChatRequest = {
    ...options.request,
    messages: [...attempt.history, prompt],
    ...(attempt.toolChoice ? { toolChoice: attempt.toolChoice } : {}),
  };
  return options.provider.stream(request, {
    signal: options.signal,
    onEvent: (event) => {
      if (event.type !== "retry") return;
      const { attempt, maxAttempts, delayMs, reason } = event;
      options.emit({ type: "retrying", attempt, maxAttempts, delayMs, reason });
    },
  });
}

/**
 * Drops the oldest whole turns after the kept head until the messages fit `budget` tokens; the newest
 * turn always stays. Dropped turns are not lost: the compaction archives them and pins their user text.
 */
export function fitHistory(history: readonly ChatMessage[], budget: number): readonly ChatMessage[] {
  if (estimateTokens(history) <= budget) return history;
  const base = compactionBase(history);
  const head = history.slice(0, base);
  const groups = turnGroups(history.slice(base));
  let size = estimateTokens(history);
  while (groups.length > 1 && size > budget) {
    size -= estimateTokens(groups.shift()!);
  }
  return [...head, ...groups.flat()];
}

/** A 400 that says the request is longer than the model's context. */
export function isOverflow(error: unknown): boolean {
  if (!(error instanceof ProviderError) || error.code !== "provider.bad_request") return false;
  return /context length|context window|too long|maximum.*tokens|reduce the length/i.test(error.message);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
