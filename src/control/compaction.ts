/**
 * @module
 * Decides when the session's context needs compacting and carries it out durably: the summary
 * request and its answer are recorded like any request, then a `compaction` record resets the
 * replayed history, so a resumed session continues from the compacted messages byte for byte.
 */
import {
  compactedHistory,
  type CompactionReason,
  DEFAULT_COMPACT_RATIO,
  estimateTokens,
  hasWorkSinceBase,
  requestSummary,
} from "../agent/compaction.ts";
import type { ReasonixEvent } from "../agent/events.ts";
import type { ChatRequest, ChatResult, Provider } from "../provider/provider.ts";
import type { SessionLog } from "../session/log.ts";

import type { ControllerParts } from "./controller_parts.ts";

export interface CompactorParts {
  /** The session log: compaction appends to it, and the history it derives follows. */
  log: SessionLog;
  provider: Provider;
  /** The request fields besides the messages, read at each compaction (tools, model, effort). */
  request: () => Omit<ChatRequest, "messages">;
  /** No automatic compaction without a known context window. */
  contextWindow?: number;
  compactRatio: number;
  now: () => Date;
  recordUsage: (result: ChatResult) => Promise<void>;
  emit: (event: ReasonixEvent) => void;
}

export class Compactor {
  #parts: CompactorParts;
  /** The prompt tokens of the last turn request and how many messages it sent. */
  #basis: { promptTokens: number; sent: number } | undefined;

  constructor(parts: CompactorParts) {
    this.#parts = parts;
  }

  /** Called after each turn request with the usage the provider reported. */
  noteRequest(promptTokens: number, sent: number): void {
    this.#basis = { promptTokens, sent };
  }

  /** The previous request's prompt tokens plus bytes/4 of what was appended since. */
  estimate(): number {
    const history = this.#parts.log.messages();
    const basis = this.#basis;
    if (!basis || basis.sent > history.length) {
      return estimateTokens(history, this.#parts.request().toolsJson);
    }
    return basis.promptTokens + estimateTokens(history.slice(basis.sent));
  }

  due(): boolean {
    const window = this.#parts.contextWindow;
    if (!window || !hasWorkSinceBase(this.#parts.log.messages())) return false;
    return this.estimate() > this.#parts.compactRatio * window;
  }

  /** Returns whether the history was replaced; a failed summary keeps it and emits a warning. */
  async compact(reason: CompactionReason, signal: AbortSignal): Promise<boolean> {
    const parts = this.#parts;
    const history = parts.log.messages();
    if (!hasWorkSinceBase(history)) return false;
    const beforeTokens = this.estimate();
    const request = parts.request();
    let outcome;
    try {
      outcome = await requestSummary({
        provider: parts.provider,
        request,
        history,
        signal,
        emit: parts.emit,
      });
    } catch (error) {
      if (signal.aborted) throw error;
      parts.emit({ type: "warning", message: `Compaction failed, the history is kept: ${describe(error)}` });
      return false;
    }
    const { prompt, result, summary } = outcome;
    if (summary === "") {
      await parts.recordUsage(result);
      parts.emit({
        type: "warning",
        message: "Compaction failed, the history is kept: the summary was empty",
      });
      return false;
    }
    const reply = { ...result.message };
    await parts.log.append({ type: "message", message: prompt }, { type: "message", message: reply });
    await parts.recordUsage(result);
    const messages = compactedHistory(history, summary);
    const afterTokens = estimateTokens(messages, request.toolsJson);
    await parts.log.append({
      type: "compaction",
      messages,
      reason,
      beforeTokens,
      afterTokens,
      at: parts.now().toISOString(),
    });
    this.#basis = undefined;
    parts.emit({ type: "compaction", beforeTokens, afterTokens, reason });
    return true;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The Compactor of a Controller's session: the same model, tools and effort as its turns. */
export function controllerCompactor(
  parts: ControllerParts,
  hooks: Pick<CompactorParts, "recordUsage" | "emit">,
): Compactor {
  return new Compactor({
    log: parts.log,
    provider: parts.provider,
    request: () => ({
      model: parts.model,
      toolsJson: parts.registry.toolsJson(),
      effort: parts.effort,
      ...(parts.maxTokens ? { maxTokens: parts.maxTokens } : {}),
    }),
    ...(parts.contextWindow ? { contextWindow: parts.contextWindow } : {}),
    compactRatio: parts.compactRatio ?? DEFAULT_COMPACT_RATIO,
    now: () => (parts.now ?? (() => new Date()))(),
    ...hooks,
  });
}
