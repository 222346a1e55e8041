/**
 * @module
 * What a turn reports back to its frontend, and the running totals of the session process.
 */
import { addUsage, emptyUsage, type Usage } from "../provider/provider.ts";
import type { ErrorInfo, ReasonixEvent, TurnSubtype } from "./events.ts";

export interface TurnTotals {
  usage: Usage;
  /** null when no priced model call completed. */
  cost: number | null;
  currency: string | null;
  /** The session's own completed requests. */
  modelCalls: number;
  /** Requests its subagents made (recursively); `usage` and `cost` include them. */
  subagentCalls: number;
  toolCalls: number;
  toolFailures: number;
  toolCallsByName: Record<string, number>;
  retries: number;
  turns: number;
}

export interface TurnOutcome {
  subtype: TurnSubtype;
  result: string;
  error?: ErrorInfo;
}

export function emptyTotals(): TurnTotals {
  return {
    usage: emptyUsage(),
    cost: null,
    currency: null,
    modelCalls: 0,
    subagentCalls: 0,
    toolCalls: 0,
    toolFailures: 0,
    toolCallsByName: {},
    retries: 0,
    turns: 0,
  };
}

/** Adds one priced request to the totals. */
export function addReceipt(
  totals: TurnTotals,
  usage: Usage,
  receipt: { cost: number | null; currency: string | null },
) {
  totals.usage = addUsage(totals.usage, usage);
  if (receipt.cost === null) return;
  totals.cost = (totals.cost ?? 0) + receipt.cost;
  totals.currency = receipt.currency;
}

/** Adds what a direct child spent (its `spent` event, which includes its own children). */
export function addChildSpend(totals: TurnTotals, event: ReasonixEvent): void {
  if (event.type !== "subagent" || event.phase !== "spent" || event.depth !== 1 || !event.spent) return;
  totals.subagentCalls += event.spent.requests;
  addReceipt(totals, event.spent.usage, event.spent);
}

/** Counts what the totals count from a turn's events: retries and tool calls. */
export function countEvent(totals: TurnTotals, event: ReasonixEvent): void {
  if (event.type === "retrying") totals.retries++;
  if (event.type !== "tool_result") return;
  totals.toolCalls++;
  if (!event.ok) totals.toolFailures++;
  totals.toolCallsByName[event.name] = (totals.toolCallsByName[event.name] ?? 0) + 1;
}
