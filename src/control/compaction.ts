/**
 * @module
 * Decides when the session's context needs compacting and carries it out durably: the summary
 * request and its answer are recorded like any request, the dropped originals are archived, then a
 * `compaction` record resets the replayed history, so a resumed session continues from the compacted
 * messages byte for byte. A failed summary keeps the history and backs off until the context has
 * grown by `BACKOFF_SHARE` of the window; past the force ratio the compaction happens without one.
 */
import { join } from "node:path";
import {
  type CompactionReason,
  DEFAULT_COMPACT_FORCE_RATIO,
  DEFAULT_COMPACT_RATIO,
  DEFAULT_SNIP_RATIO,
  estimateTokens,
  hasWorkSinceBase,
} from "../agent/compaction.ts";
import {
  compactedHistory,
  type CompactionPlan,
  digestCount,
  digestText,
  instructionsBlock,
  pinnedMessages,
  planCompaction,
  recentBlock,
} from "../agent/compaction_plan.ts";
import { budgetPins, pinnedSoFar } from "../agent/pins.ts";
import { instructionLabels } from "./instruction_reader.ts";
import { requestSummary } from "../agent/summary.ts";
import type { ReasonixEvent } from "../agent/events.ts";
import type { ChatMessage, ChatRequest, ChatResult, Provider } from "../provider/provider.ts";
import type { SessionLog } from "../session/log.ts";
import { tryArchive } from "../session/archive.ts";
import type { Price } from "../config/types.ts";
import { snipStale } from "./snip.ts";
import { contextParts, type ContextReport } from "./context_report.ts";
import type { ControllerParts } from "./controller_parts.ts";

/** After a failed summary, no new automatic attempt until the context grew by this share of the window. */
export const BACKOFF_SHARE = 0.05;
/** The recent whole turns a compaction keeps verbatim, as a share of the window. */
export const TAIL_SHARE = 0.1;
/** The dropped user requests (not statements) the digest keeps verbatim, newest first, as a share of the window. */
export const RECENT_SHARE = 0.02;
/** All pinned statements together, as a share of the window; past it the oldest move out (src/agent/pins.ts). */
export const PIN_SHARE = 0.15;
const NO_SUMMARY = "(No model summary: the summary request failed. The user's messages above are " +
  "verbatim; the rest of the conversation is in the archive.)";

export interface CompactorParts {
  /** The session log: compaction appends to it, and the history it derives follows. */
  log: SessionLog;
  provider: Provider;
  /** The request fields besides the messages, read at each compaction (tools, model, effort). */
  request: () => Omit<ChatRequest, "messages">;
  /** No automatic compaction without a known context window (or with 0). */
  contextWindow?: number;
  compactRatio: number;
  forceRatio: number;
  /** `tool_result_snip_ratio`; 0 or absent: never snip below the compact ratio. */
  snipRatio?: number;
  /** The model's configured price, for the snip's price check. */
  price?: Price;
  /** Where dropped originals are archived; without it they stay only in the session file. */
  archiveDir?: string;
  /** The instruction files as they are on disk now. */
  instructions?: () => Promise<readonly { label: string; text: string }[]>;
  now: () => Date;
  recordUsage: (result: ChatResult) => Promise<void>;
  emit: (event: ReasonixEvent) => void;
}

export interface CompactOptions {
  /** Between two requests of a turn: that turn is kept whole. */
  midTurn?: boolean;
  /** `/compact <focus>`. */
  focus?: string;
}

export class Compactor {
  #parts: CompactorParts;
  /** The prompt tokens of the last turn request and how many messages it sent. */
  #basis: { promptTokens: number; sent: number } | undefined;
  /**
   * The estimate when the last automatic summary failed, or when a compaction could not bring the
   * context below the compact ratio: no automatic attempt until it grew by the back-off margin.
   */
  #failedAt: number | undefined;
  /** The estimate at the last snip or snip decision: the next waits for the back-off margin. */
  #snippedAt: number | undefined;
  /** Average prompt growth per request (tokens), for the snip's price check. */
  #growth: number | undefined;

  constructor(parts: CompactorParts) {
    this.#parts = parts;
  }

  get parts(): Readonly<CompactorParts> {
    return this.#parts;
  }

  /** Called after each turn request with the usage the provider reported. */
  noteRequest(promptTokens: number, sent: number): void {
    const grown = this.#basis ? promptTokens - this.#basis.promptTokens : 0;
    if (grown > 0) this.#growth = this.#growth === undefined ? grown : 0.8 * this.#growth + 0.2 * grown;
    this.#basis = { promptTokens, sent };
  }

  /**
   * Between requests: a compaction when one is due (stale tool results snipped first, and the summary
   * skipped when that was enough), else a snip past the snip ratio when it pays for itself.
   */
  async maintain(signal: AbortSignal, options: { midTurn: boolean }): Promise<void> {
    if (this.due()) {
      if (await this.#snip(true) && !this.due()) return;
      await this.compact("context_limit", signal, options);
      return;
    }
    const window = this.#parts.contextWindow ?? 0;
    const ratio = this.#parts.snipRatio;
    if (!window || !ratio || !hasWorkSinceBase(this.#parts.log.messages())) return;
    const estimate = this.estimate();
    const quiet = this.#snippedAt === undefined ? 0 : this.#snippedAt + BACKOFF_SHARE * window;
    if (estimate > ratio * window && estimate > quiet) await this.#snip(false);
  }

  /** Snips stale tool results; true when the history was rewritten. */
  async #snip(force: boolean): Promise<boolean> {
    const parts = this.#parts;
    const window = parts.contextWindow ?? 0;
    const beforeTokens = this.estimate();
    const growth = this.#growth ?? Math.max(1, 0.02 * window);
    const remainingRequests = Math.max(1, (parts.compactRatio * window - beforeTokens) / growth);
    const after = await snipStale({
      log: parts.log,
      model: parts.request().model,
      ...(parts.price ? { price: parts.price } : {}),
      toolsJson: parts.request().toolsJson,
      ...(parts.archiveDir ? { archiveDir: parts.archiveDir } : {}),
      now: parts.now,
      emit: parts.emit,
    }, { tailBudget: Math.floor(TAIL_SHARE * window), remainingRequests, force, beforeTokens });
    if (after === "none") return false;
    this.#snippedAt = beforeTokens;
    if (after === "skipped") return false;
    this.#basis = undefined;
    return true;
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

  /** The estimate at which the next automatic compaction would start (null: never). */
  nextAt(): number | null {
    const window = this.#parts.contextWindow;
    if (!window) return null;
    const due = this.#parts.compactRatio * window;
    if (this.#failedAt === undefined) return Math.floor(due);
    return Math.floor(Math.min(Math.max(due, this.#failedAt + BACKOFF_SHARE * window), this.#forceAt()));
  }

  /** What the window holds and where the next snip and compaction happen (`/context`). */
  report(): ContextReport {
    const parts = this.#parts;
    const window = parts.contextWindow || null;
    const history = parts.log.messages();
    const snipRatio = parts.snipRatio ?? 0;
    return {
      parts: contextParts(history, parts.request().toolsJson),
      estimate: this.estimate(),
      window,
      snipAt: window && snipRatio > 0 && snipRatio < parts.compactRatio
        ? Math.floor(snipRatio * window)
        : null,
      compactAt: this.nextAt(),
      forceAt: window ? Math.floor(this.#forceAt()) : null,
    };
  }

  due(): boolean {
    const next = this.nextAt();
    if (next === null || !hasWorkSinceBase(this.#parts.log.messages())) return false;
    return this.estimate() > next;
  }

  #backedOff(tokens: number): boolean {
    const window = this.#parts.contextWindow ?? 0;
    return this.#failedAt !== undefined && tokens < this.#failedAt + BACKOFF_SHARE * window;
  }

  #forceAt(): number {
    return this.#parts.forceRatio * (this.#parts.contextWindow ?? 0);
  }

  /** Returns whether the history was replaced; a failed summary keeps it and emits a warning. */
  async compact(
    reason: CompactionReason,
    signal: AbortSignal,
    options: CompactOptions = {},
  ): Promise<boolean> {
    const parts = this.#parts;
    const history = parts.log.messages();
    if (!hasWorkSinceBase(history)) return false;
    const plan = this.#plan(history, options.midTurn ?? false);
    if (plan.dropped.length === 0) return false;
    const beforeTokens = this.estimate();
    if (reason !== "manual" && this.#backedOff(beforeTokens)) {
      // Only the force ratio brings a backed-off session here: compact without asking the model again.
      await this.#replace(plan, { summary: NO_SUMMARY, reason: "forced", beforeTokens });
      return true;
    }
    const outcome = await requestSummary({
      provider: parts.provider,
      request: parts.request(),
      history,
      signal,
      emit: parts.emit,
      onResult: parts.recordUsage,
      ...(parts.contextWindow ? { window: parts.contextWindow } : {}),
      ...(options.focus ? { focus: options.focus } : {}),
      tokens: beforeTokens,
    });
    if (!outcome.ok) {
      const forced = reason !== "manual" && beforeTokens > this.#forceAt() && this.#forceAt() > 0;
      this.#failedAt = beforeTokens;
      parts.emit({ type: "warning", message: this.#failureText(outcome.reason, forced) });
      if (!forced) return false;
      await this.#replace(plan, { summary: NO_SUMMARY, reason: "forced", beforeTokens });
      return true;
    }
    const reply: ChatMessage = {
      role: "assistant",
      content: outcome.result.message.content,
      ...(outcome.result.message.reasoning_content !== undefined
        ? { reasoning_content: outcome.result.message.reasoning_content }
        : {}),
    };
    await parts.log.append({ type: "message", message: outcome.prompt }, { type: "message", message: reply });
    await parts.recordUsage(outcome.result);
    await this.#replace(plan, { summary: outcome.summary, reason, beforeTokens });
    return true;
  }

  /** The tail keeps recent whole turns up to its budget; when that leaves nothing to drop, only the current. */
  #plan(history: readonly ChatMessage[], midTurn: boolean): CompactionPlan {
    const window = this.#parts.contextWindow;
    const tailBudget = window ? Math.floor(TAIL_SHARE * window) : 0;
    const plan = planCompaction(history, { tailBudget, midTurn });
    if (plan.dropped.length > 0) return plan;
    const bare = planCompaction(history, { tailBudget: 0, midTurn });
    return bare.dropped.length > 0 || !midTurn
      ? bare
      : planCompaction(history, { tailBudget, midTurn, splitCurrent: true });
  }

  async #replace(
    plan: CompactionPlan,
    facts: { summary: string; reason: CompactionReason; beforeTokens: number },
  ): Promise<void> {
    const parts = this.#parts;
    const at = parts.now();
    const warn = (message: string) => parts.emit({ type: "warning", message });
    const archive = await tryArchive(
      parts.archiveDir,
      { session: parts.log.id, at, messages: plan.dropped },
      warn,
    );
    const window = parts.contextWindow || 100_000;
    const pins = pinnedMessages(plan.dropped, Math.floor(RECENT_SHARE * window), pinnedSoFar(plan.head));
    const kept = budgetPins(plan.head, pins.facts, Math.floor(PIN_SHARE * window));
    const digest = digestText({
      number: digestCount(plan.head) + 1,
      facts: kept.facts,
      moved: kept.movedNew,
      summary: facts.summary,
      ...(archive ? { archive: join("archive", archive.split(/[\\/]/).at(-1)!) } : {}),
    });
    if (kept.moved > 0) parts.emit({ type: "notice", message: movedNotice(kept.moved, window) });
    const messages = compactedHistory(
      { ...plan, head: kept.head },
      digest,
      recentBlock(pins.recent),
      await this.#instructionsUpdate(plan),
    );
    const afterTokens = estimateTokens(messages, parts.request().toolsJson);
    const { reason, beforeTokens } = facts;
    await parts.log.append({
      type: "compaction",
      messages,
      reason,
      beforeTokens,
      afterTokens,
      at: at.toISOString(),
    });
    this.#basis = undefined;
    const limit = parts.contextWindow ?? 0;
    this.#failedAt = afterTokens >= parts.compactRatio * limit && limit > 0 ? afterTokens : undefined;
    parts.emit({ type: "compaction", beforeTokens, afterTokens, reason });
  }

  /** Instruction files re-read from disk: what changed since the system prompt was built, or null. */
  async #instructionsUpdate(plan: CompactionPlan): Promise<string | null> {
    const system = plan.head[0]?.role === "system" ? plan.head[0].content : "";
    const current = await this.#parts.instructions?.().catch(() => null);
    return current ? instructionsBlock(system, current, instructionLabels(system)) : null;
  }

  #failureText(reason: string, forced: boolean): string {
    const window = this.#parts.contextWindow ?? 0;
    const next = forced
      ? "the context is past the force ratio, so it is compacted without a summary (originals archived)"
      : `the next attempt waits until the context grows by ${Math.round(BACKOFF_SHARE * window)} tokens`;
    return `Compaction failed, the history is kept: ${reason}; ${next}`;
  }
}

function movedNotice(count: number, window: number): string {
  return `${count} pinned statement(s) moved out of the context: the pins passed ${
    Math.round(PIN_SHARE * 100)
  }% of the ${window}-token window. The history tool (or \`reasonix session search\`) finds them`;
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
    forceRatio: Math.max(parts.compactForceRatio ?? DEFAULT_COMPACT_FORCE_RATIO, parts.compactRatio ?? 0),
    snipRatio: parts.snipRatio ?? DEFAULT_SNIP_RATIO,
    ...(parts.providerConfig.price ? { price: parts.providerConfig.price } : {}),
    ...(parts.archiveDir ? { archiveDir: parts.archiveDir } : {}),
    ...(parts.instructionFiles ? { instructions: parts.instructionFiles } : {}),
    now: () => (parts.now ?? (() => new Date()))(),
    ...hooks,
  });
}
