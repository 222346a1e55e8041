/**
 * @module
 * What a turn reports back to its frontend, and the running totals of the session process.
 */
import type { Usage } from "../provider/provider.ts";
import type { ErrorInfo, TurnSubtype } from "./events.ts";

export interface TurnTotals {
  usage: Usage;
  /** null when no priced model call completed. */
  cost: number | null;
  currency: string | null;
  modelCalls: number;
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
