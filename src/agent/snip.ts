/**
 * @module
 * Snipping: stale tool results before the recent tail are shortened to a deterministic head/tail form
 * (errors and blocked calls kept whole, the tail never touched). Each snip rewrites the history from
 * its first shortened result on, so the next request re-sends that part as cache misses: it is done
 * only when the saving over the requests still to come beats that cost at the model's prices.
 */
import type { ChatMessage, ToolMessage } from "../provider/provider.ts";
import { estimateTokens } from "./compaction.ts";
import { planCompaction } from "./compaction_plan.ts";

/** Tool results shorter than this are left alone. */
export const SNIP_MIN_CHARS = 2000;
const SNIP_HEAD = 800;
const SNIP_TAIL = 400;
const SNIPPED = "characters of this old tool result were snipped";

export interface SnipOptions {
  /** Tokens of recent whole turns never rewritten (the current turn always stays). */
  tailBudget: number;
  /** Whether the call's result must stay whole (its tool failed or was blocked). */
  keep: (callId: string) => boolean;
  /** Where the originals are archived, named in the marker. */
  archive?: string;
}

export interface SnipPlan {
  messages: ChatMessage[];
  /** The original tool messages that were shortened. */
  originals: ToolMessage[];
  /** Index of the first rewritten message. */
  first: number;
  savedTokens: number;
  /** Tokens from the first rewritten message to the end, after the snip (re-sent as misses once). */
  rewrittenTokens: number;
}

export function snipText(content: string, archive?: string): string {
  const cut = content.length - SNIP_HEAD - SNIP_TAIL;
  const where = archive ? `; the original is in ${archive}` : "";
  return `${content.slice(0, SNIP_HEAD)}\n[… ${cut} ${SNIPPED}${where} …]\n${content.slice(-SNIP_TAIL)}`;
}

/** The history with its stale long tool results shortened; null when nothing qualifies. */
export function planSnip(history: readonly ChatMessage[], options: SnipOptions): SnipPlan | null {
  const plan = planCompaction(history, { tailBudget: options.tailBudget, midTurn: true });
  const tailStart = history.length - plan.tail.length;
  const messages = [...history];
  const originals: ToolMessage[] = [];
  let first = -1;
  for (let i = plan.head.length; i < tailStart; i++) {
    const message = history[i]!;
    if (message.role !== "tool" || message.content.length < SNIP_MIN_CHARS) continue;
    if (message.content.includes(SNIPPED) || options.keep(message.tool_call_id)) continue;
    messages[i] = { ...message, content: snipText(message.content, options.archive) };
    originals.push(message);
    if (first < 0) first = i;
  }
  if (first < 0) return null;
  const rewrittenTokens = estimateTokens(messages.slice(first));
  const savedTokens = estimateTokens(history.slice(first)) - rewrittenTokens;
  return { messages, originals, first, savedTokens, rewrittenTokens };
}

export interface SnipEconomics {
  /** Price per token of a cache hit and of a miss (any unit, the same for both). */
  hit: number;
  miss: number;
  /** Requests expected before the context is compacted anyway. */
  remainingRequests: number;
}

/** A snip pays when the hit tokens it saves on the coming requests cost more than re-sending its suffix as misses. */
export function snipPays(
  plan: Pick<SnipPlan, "savedTokens" | "rewrittenTokens">,
  money: SnipEconomics,
): boolean {
  const saving = plan.savedTokens * money.hit * money.remainingRequests;
  const cost = plan.rewrittenTokens * (money.miss - money.hit);
  return saving > cost;
}
