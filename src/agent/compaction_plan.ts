/**
 * @module
 * What survives a compaction, decided without the model: the kept head (system, session context,
 * earlier digests, never rewritten but for the pin budget, src/agent/pins.ts), the dropped middle
 * (archived; the user's statements pinned verbatim in the new digest, the latest other requests verbatim in a recent-requests block that the
 * next compaction replaces) and the kept tail of whole recent turns; a compaction in the middle of a turn
 * always keeps that turn whole, and the tail always starts at a user message, never at a tool result.
 */
import { typedText } from "../session/details.ts";
import type { ChatMessage } from "../provider/provider.ts";
import {
  compactionBase,
  estimateTokens,
  INSTRUCTIONS_OPEN,
  isRecentBlock,
  isSummaryPrompt,
  isTransientBlock,
  RECENT_CLOSE,
  RECENT_OPEN,
  SUMMARY_CLOSE,
  SUMMARY_OPEN,
} from "./compaction.ts";
import { STEP_LIMIT_NOTE } from "./loop.ts";
import { asksSomething, pinOf, statedLines } from "./pins.ts";
import { statesFact } from "./fact_statements.ts";
import { isSteerMessage } from "./steer.ts";
import { isHostNote } from "./host_note.ts";

/** A user message longer than this is a paste: its digest copy is shortened, its raw text archived. */
export const PIN_MAX_CHARS = 2000;
const PASTE_HEAD = 1200;
const PASTE_TAIL = 300;
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
  /**
   * Only when nothing else is left to drop (one turn fills the window): the current turn keeps its task
   * and its latest steps within `tailBudget` (the last one always), and its older steps are dropped.
   */
  splitCurrent?: boolean;
}

/** A user message that opens a turn (not a step-limit note, a summary prompt or a digest). */
export function opensTurn(message: ChatMessage): boolean {
  if (message.role !== "user") return false;
  const content = message.content;
  return content !== STEP_LIMIT_NOTE && !isSteerMessage(content) && !isSummaryPrompt(content) &&
    !content.startsWith(SUMMARY_OPEN) && !isHostNote(content) &&
    !isTransientBlock(message);
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
  if (options.midTurn && groups.length > 0 && options.splitCurrent) {
    const split = splitTurn(groups.pop()!, options.tailBudget);
    return { head: history.slice(0, base), dropped: [...groups.flat(), ...split.dropped], tail: split.kept };
  }
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

/** A turn's task and latest steps (an assistant message and the results that answer it), oldest dropped. */
function splitTurn(turn: ChatMessage[], budget: number): { kept: ChatMessage[]; dropped: ChatMessage[] } {
  const [task, ...rest] = turn;
  const steps: ChatMessage[][] = [];
  for (const message of rest) {
    if (message.role === "assistant" || steps.length === 0) steps.push([message]);
    else steps.at(-1)!.push(message);
  }
  const kept: ChatMessage[][] = steps.length > 0 ? [steps.pop()!] : [];
  let used = kept.length > 0 ? estimateTokens(kept[0]!) : 0;
  while (steps.length > 0 && used + estimateTokens(steps.at(-1)!) <= budget) {
    used += estimateTokens(steps.at(-1)!);
    kept.unshift(steps.pop()!);
  }
  return { kept: [task!, ...kept.flat()], dropped: steps.flat() };
}

export { typedText };

export interface Pins {
  /** Statements of the dropped part, verbatim (pastes shortened). */
  facts: string[];
  /** The most recent other user messages of the dropped part, verbatim, within the budget. */
  recent: string[];
}

/**
 * The user's messages of the dropped part: what each stated (its fact sentences, never one already in
 * `pinned`, which grows), and the other recent ones (requests, questions) up to `recentBudget` tokens.
 */
export function pinnedMessages(
  dropped: readonly ChatMessage[],
  recentBudget: number,
  pinned: Set<string> = new Set(),
): Pins {
  const facts: string[] = [];
  const others: string[] = [];
  for (const message of dropped) {
    if (isRecentBlock(message)) others.push(...recentIn(message.content as string));
    if (!opensTurn(message)) continue;
    const text = typedText(message.content as string).trim();
    if (text === "") continue;
    if (text.length > PIN_MAX_CHARS) {
      const cut = text.length - PASTE_HEAD - PASTE_TAIL;
      const paste = `${text.slice(0, PASTE_HEAD)}\n[… ${cut} characters archived …]\n${
        text.slice(-PASTE_TAIL)
      }`;
      if (!pinned.has(paste)) facts.push(paste);
      pinned.add(paste);
      continue;
    }
    const pin = pinOf(text, pinned);
    if (pin !== null) facts.push(pin);
    if (asksSomething(text) || !statesFact(text)) others.push(text);
  }
  const recent: string[] = [];
  let used = 0;
  for (const text of others.reverse()) {
    used += Math.ceil(text.length / 4) + 8;
    if (used > recentBudget) break;
    recent.unshift(text);
  }
  return { facts, recent };
}

const PINNED = /<user-message>\n([\s\S]*?)\n<\/user-message>/g;

/** The requests a recent-requests block carries, in order. */
function recentIn(content: string): string[] {
  return [...content.matchAll(PINNED)].map((match) => match[1]!);
}

function pinLines(pins: readonly string[]): string[] {
  return pins.flatMap((pin) => ["<user-message>", pin, "</user-message>"]);
}

/** The message after the digests with the user's latest requests, or null when there are none. */
export function recentBlock(recent: readonly string[]): string | null {
  if (recent.length === 0) return null;
  const lines = [RECENT_OPEN, "The user's latest requests before this point, verbatim:", ...pinLines(recent)];
  return [...lines, RECENT_CLOSE].join("\n");
}

export interface DigestParts {
  /** 1 for the session's first digest. */
  number: number;
  /** The user's statements of the dropped part (`Pins.facts`, within the pin budget). */
  facts: readonly string[];
  /** How many of this part's statements the pin budget moved out (`BudgetedPins.movedNew`). */
  moved?: number;
  summary: string;
  /** The archive file holding the dropped originals, relative to the state root. */
  archive?: string;
}

export function digestText(parts: DigestParts): string {
  const lines = [SUMMARY_OPEN, `Digest ${parts.number} of the conversation before this point.`];
  if (parts.archive) lines.push(`Originals archived in ${parts.archive}.`);
  lines.push(...statedLines(parts.facts, parts.moved ?? 0));
  lines.push("", "Summary:", parts.summary, SUMMARY_CLOSE);
  return lines.join("\n");
}

/** How many digests the kept head already holds. */
export function digestCount(head: readonly ChatMessage[]): number {
  return Math.max(0, head.length - 2);
}

/**
 * The instruction files whose text on disk is not in the system prompt any more (changed or new), and the
 * labels of those gone: the session keeps its system prompt (its cache), this block tells the model.
 */
export function instructionsBlock(
  system: string,
  current: readonly { label: string; text: string }[],
  started: readonly string[],
): string | null {
  const changed = current.filter((file) => !system.includes(file.text.trim()));
  const labels = new Set(current.map((file) => file.label));
  const gone = started.filter((label) => !labels.has(label));
  if (changed.length === 0 && gone.length === 0) return null;
  const lines = [
    INSTRUCTIONS_OPEN,
    "Instruction files changed on disk since the session began; this text wins over",
  ];
  lines.push("the system prompt's copy:");
  for (const file of changed) lines.push("", `## ${file.label}`, "", file.text.trim());
  if (gone.length > 0) lines.push("", `Removed since: ${gone.join(", ")} (ignore their rules).`);
  return [...lines, "</instructions-update>"].join("\n");
}

/** The history after a compaction: the kept head, the new digest, the transient blocks, the kept tail. */
export function compactedHistory(
  plan: CompactionPlan,
  digest: string,
  ...blocks: (string | null)[]
): ChatMessage[] {
  const extra: ChatMessage[] = blocks.filter((b) => b !== null).map((content) => ({ role: "user", content }));
  return [...plan.head, { role: "user", content: digest }, ...extra, ...plan.tail];
}
