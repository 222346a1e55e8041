/**
 * @module
 * The context gauge and running cost an editor shows (`usage_update`): tokens of the last request against
 * the model's window, and the cost of every priced request of the session seen so far, its subagents'
 * included (a direct child's `spent` event; the context gauge stays the session's own).
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ReasonixEvent } from "../../control/mod.ts";

type UsageEvent = Extract<ReasonixEvent, { type: "usage" | "subagent" }>;

export class UsageGauge {
  #used = 0;
  #amount = 0;
  #currency: string | null = null;
  #seen = false;

  /** Whether the figures changed. */
  add(event: UsageEvent): boolean {
    if (event.type === "subagent") {
      const spent = event.phase === "spent" && event.depth === 1 ? event.spent : undefined;
      return spent !== undefined && this.#price(spent.cost, spent.currency);
    }
    this.#seen = true;
    this.#used = event.usage.promptTokens + event.usage.completionTokens;
    this.#price(event.cost, event.currency);
    return true;
  }

  #price(cost: number | null, currency: string | null): boolean {
    if (cost === null) return false;
    this.#amount += cost;
    this.#currency ??= currency;
    return true;
  }

  /** Null before the first request, or when the model's window is unknown. */
  update(contextWindow: number | null): acp.SessionUpdate | null {
    if (!this.#seen || contextWindow === null) return null;
    return {
      sessionUpdate: "usage_update",
      used: this.#used,
      size: contextWindow,
      cost: this.#currency === null ? null : { amount: this.#amount, currency: this.#currency },
    };
  }
}
