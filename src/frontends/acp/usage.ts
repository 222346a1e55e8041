/**
 * @module
 * The context gauge and running cost an editor shows (`usage_update`): tokens of the last request against
 * the model's window, and the cost of every priced request of the session seen so far.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { ReasonixEvent } from "../../control/mod.ts";

type UsageEvent = Extract<ReasonixEvent, { type: "usage" }>;

export class UsageGauge {
  #used = 0;
  #amount = 0;
  #currency: string | null = null;
  #seen = false;

  add(event: UsageEvent): void {
    this.#seen = true;
    this.#used = event.usage.promptTokens + event.usage.completionTokens;
    if (event.cost === null) return;
    this.#amount += event.cost;
    this.#currency ??= event.currency;
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
