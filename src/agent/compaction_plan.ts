/**
 * @module
 * What survives a compaction, decided without the model: the kept head (system, session context,
 * earlier digests, never rewritten), the dropped middle (archived, its user messages pinned verbatim
 * in the new digest) and the kept tail of whole recent turns; a compaction in the middle of a turn
 * always keeps that turn whole, and the tail always starts at a user message, never at a tool result.
 */
import type { ChatMessage } from "../provider/provider.ts";
import {
  compactionBase,
  estimateTokens,
  isSummaryPrompt,
  SUMMARY_CLOSE,
  SUMMARY_OPEN,
} from "./compaction.ts";
import { STEP_LIMIT_NOTE } from "./loop.ts";

/** A user message longer than this is a paste: its digest copy is shortened, its raw text archived. */
export const PIN_MAX_CHARS = 2000;
const PASTE_HEAD = 1200;
const PASTE_TAIL = 300;
const TURN_NOTES = /\n\n<turn-context>\n[\s\S]*\n<\/turn-context>$/;

export interface CompactionPlan {
  head: ChatMessage[];
  dropped: ChatMessage[];
  tail: ChatMessage[];
}

export interface PlanOptions {
  /** Tokens of recent whole turns the tail may hold besides the current turn. */
  tailBudget: number;
  /** A compaction between two requests of a turn: that turn is kept whole, whatever its size. */
  midTurn: boolean;
}

/** A user message that opens a turn (not a step-limit note, a summary prompt or a digest). */
export function opensTurn(message: ChatMessage): boolean {
  if (message.role !== "user") return false;
  const content = message.content;
  return content !== STEP_LIMIT_NOTE && !isSummaryPrompt(content) && !content.startsWith(SUMMARY_OPEN);
}

/** Splits messages into turns, each starting at the user message that opened it. */
export function turnGroups(messages: readonly ChatMessage[]): ChatMessage[][] {
  const groups: ChatMessage[][] = [];
  for (const message of messages) {
    if (opensTurn(message) || groups.length === 0) groups.push([message]);
    else groups.at(-1)!.push(message);
  }
  return groups;
}

export function planCompaction(history: readonly ChatMessage[], options: PlanOptions): CompactionPlan {
  const base = compactionBase(history);
  const groups = turnGroups(history.slice(base));
  const kept: ChatMessage[][] = [];
  if (options.midTurn && groups.length > 0) kept.unshift(groups.pop()!);
  let used = 0;
  while (groups.length > 0) {
    const size = estimateTokens(groups.at(-1)!);
    if (used + size > options.tailBudget || !opensTurn(groups.at(-1)![0]!)) break;
    used += size;
    kept.unshift(groups.pop()!);
  }
  return { head: history.slice(0, base), dropped: groups.flat(), tail: kept.flat() };
}

/** The text the user typed in a turn message, without the notes Reasonix appended to it. */
export function typedText(content: string): string {
  return content.replace(TURN_NOTES, "");
}

/** The user's messages of the dropped part, verbatim; a paste keeps its head and tail only. */
export function pinnedMessages(dropped: readonly ChatMessage[]): string[] {
  const pins: string[] = [];
  for (const message of dropped) {
    if (!opensTurn(message)) continue;
    const text = typedText(message.content as string).trim();
    if (text === "") continue;
    if (text.length <= PIN_MAX_CHARS) pins.push(text);
    else {
      const cut = text.length - PASTE_HEAD - PASTE_TAIL;
      pins.push(`${text.slice(0, PASTE_HEAD)}\n[… ${cut} characters archived …]\n${text.slice(-PASTE_TAIL)}`);
    }
  }
  return pins;
}

export interface DigestParts {
  /** 1 for the session's first digest. */
  number: number;
  pins: readonly string[];
  summary: string;
  /** The archive file holding the dropped originals, relative to the state root. */
  archive?: string;
}

export function digestText(parts: DigestParts): string {
  const lines = [SUMMARY_OPEN, `Digest ${parts.number} of the conversation before this point.`];
  if (parts.archive) lines.push(`Originals archived in ${parts.archive}.`);
  if (parts.pins.length > 0) {
    lines.push("", "The user's messages, verbatim and in order:");
    for (const pin of parts.pins) lines.push("<user-message>", pin, "</user-message>");
  }
  lines.push("", "Summary:", parts.summary, SUMMARY_CLOSE);
  return lines.join("\n");
}

/** How many digests the kept head already holds. */
export function digestCount(head: readonly ChatMessage[]): number {
  return Math.max(0, head.length - 2);
}

/** The history after a compaction: the kept head, the new digest, the kept tail. */
export function compactedHistory(plan: CompactionPlan, digest: string): ChatMessage[] {
  return [...plan.head, { role: "user", content: digest }, ...plan.tail];
}
