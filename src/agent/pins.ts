/**
 * @module
 * The user's pinned statements: what each dropped turn stated (src/agent/fact_statements.ts), verbatim,
 * never pinned twice, held in the digests a compaction writes. Earlier digests are kept byte for byte,
 * so the pins only grow, at compaction time. All pins together stay within a budget (a share of the
 * window): past it, the oldest pins leave their digests in one large step (to three quarters of the
 * budget, so it happens rarely), and the digest says how many left and how to find them (`history`;
 * their originals are in the session file and the archive the digest names).
 */
import type { ChatMessage } from "../provider/provider.ts";
import { isDigest } from "./compaction.ts";
import { statementUnits } from "./fact_statements.ts";

export const STATED_HEADER = "What the user stated, verbatim and in order:";
/** After a budget cut the pins shrink to this share of the budget, so the next cut is far away. */
export const PIN_REFILL = 0.75;

const PIN_OPEN = "<user-message>";
const PIN_CLOSE = "</user-message>";
const MOVED = /^\[(\d+) earlier statement\(s\) moved out of the context[^\n]*\]$/m;
const MOVED_LINE = /^\[\d+ earlier statement\(s\) moved out of the context[^\n]*\]$/;
const ENCODER = new TextEncoder();

/**
 * The pin of one user turn, or null when it states nothing new: the whole text when everything in it
 * that is a question, request or fact is a fact (code and fillers ride along), else its new fact
 * sentences, one a line. Pinned units are added to `pinned`.
 */
export function pinOf(text: string, pinned: Set<string>): string | null {
  const units = statementUnits(text);
  const facts = units.filter((unit) => unit.kind === "fact");
  const fresh = facts.filter((unit) => !pinned.has(unit.text));
  if (fresh.length === 0) return null;
  for (const unit of fresh) pinned.add(unit.text);
  const whole = fresh.length === facts.length &&
    units.every((unit) => unit.kind === "fact" || unit.kind === "other");
  return whole ? text : fresh.map((unit) => unit.text).join("\n");
}

/** Whether `text` holds anything besides facts (a request or a question): such a turn also counts as a request. */
export function asksSomething(text: string): boolean {
  return statementUnits(text).some((unit) => unit.kind === "request" || unit.kind === "question");
}

/** The pins a digest holds, in order. */
export function digestPins(content: string): string[] {
  const section = statedSection(content);
  if (section === null) return [];
  return blocks(content.slice(section.start, section.end)).map((block) => block.pin);
}

/** Every unit already pinned in `head`'s digests (and each pin whole), so no statement is pinned twice. */
export function pinnedSoFar(head: readonly ChatMessage[]): Set<string> {
  const pinned = new Set<string>();
  for (const message of head) {
    if (!isDigest(message)) continue;
    for (const pin of digestPins(message.content as string)) {
      pinned.add(pin);
      for (const unit of statementUnits(pin)) pinned.add(unit.text);
    }
  }
  return pinned;
}

/** A rough token count of a pin as the digest holds it (UTF-8 bytes over 4, plus its tags). */
export function pinTokens(pin: string): number {
  return Math.ceil(ENCODER.encode(pin).length / 4) + 8;
}

export interface BudgetedPins {
  /** The kept head, with the oldest pins taken out of earlier digests when the budget was passed. */
  head: ChatMessage[];
  /** The new digest's pins that stay. */
  facts: string[];
  /** How many of the new digest's own pins left (only when the new ones alone pass the budget). */
  movedNew: number;
  /** How many pins left in all. */
  moved: number;
}

/** Keeps all pins within `budget` tokens; past it, the oldest leave until they fit `PIN_REFILL` of it. */
export function budgetPins(
  head: readonly ChatMessage[],
  facts: readonly string[],
  budget: number,
): BudgetedPins {
  const held = head.map((message) => isDigest(message) ? digestPins(message.content as string) : []);
  const all = [...held.flat(), ...facts];
  let total = all.reduce((sum, pin) => sum + pinTokens(pin), 0);
  if (total <= budget) return { head: [...head], facts: [...facts], movedNew: 0, moved: 0 };
  let moved = 0;
  while (moved < all.length && total > PIN_REFILL * budget) total -= pinTokens(all[moved++]!);
  let left = moved;
  const kept = head.map((message, i) => {
    const take = Math.min(left, held[i]!.length);
    left -= take;
    return take === 0 ? message : { ...message, content: withoutOldest(message.content as string, take) };
  });
  return { head: kept, facts: facts.slice(left), movedNew: left, moved };
}

/** The stated section of a digest: pins, one after another, after the header line. */
export function statedLines(facts: readonly string[], moved: number): string[] {
  if (facts.length === 0 && moved === 0) return [];
  const lines = ["", STATED_HEADER];
  if (moved > 0) lines.push(movedLine(moved));
  return [...lines, ...facts.flatMap((pin) => [PIN_OPEN, pin, PIN_CLOSE])];
}

function movedLine(count: number): string {
  return `[${count} earlier statement(s) moved out of the context to keep the pins within budget; they are ` +
    `verbatim in the session and the archive named above: search their words with the history tool]`;
}

/** The digest without its `count` oldest pins, counting them in its moved line. */
function withoutOldest(content: string, count: number): string {
  const section = statedSection(content)!;
  const body = content.slice(section.start, section.end);
  const found = blocks(body);
  const earlier = Number(MOVED.exec(body)?.[1] ?? 0);
  const rest = found.slice(count).map((block) => body.slice(block.from, block.to));
  const lines = [movedLine(earlier + count), ...rest];
  return content.slice(0, section.start) + lines.join("\n") + content.slice(section.end);
}

/**
 * Where the pins of a digest are: from the line after the header through the last pin block (or the
 * moved line). Read line by line from the header, so neither a pin's text nor the summary after the
 * section can move its end.
 */
function statedSection(content: string): { start: number; end: number } | null {
  const header = content.indexOf(`\n${STATED_HEADER}\n`);
  if (header < 0) return null;
  const start = header + STATED_HEADER.length + 2;
  let end = start;
  let offset = start;
  let open = false;
  for (const line of content.slice(start).split("\n")) {
    if (!open && line !== PIN_OPEN && !MOVED_LINE.test(line)) break;
    if (!open) open = line === PIN_OPEN;
    else if (line === PIN_CLOSE) open = false;
    offset += line.length + 1;
    if (!open) end = offset - 1;
  }
  return { start, end };
}

/** The pin blocks of a stated section, by position; the pin text between the tags. */
function blocks(body: string): { pin: string; from: number; to: number }[] {
  const found: { pin: string; from: number; to: number }[] = [];
  let offset = 0;
  let open: { from: number; pin: string[] } | null = null;
  for (const line of body.split("\n")) {
    if (open === null && line === PIN_OPEN) open = { from: offset, pin: [] };
    else if (open !== null && line === PIN_CLOSE) {
      found.push({ pin: open.pin.join("\n"), from: open.from, to: offset + line.length });
      open = null;
    } else if (open !== null) open.pin.push(line);
    offset += line.length + 1;
  }
  return found;
}
