/**
 * @module
 * Prices one model call, adds it to the process totals and records it in the session log; the `usage`
 * event it returns is what every face is told.
 */
import { priceFor, receiptFor } from "../provider/pricing.ts";
import type { ChatResult } from "../provider/provider.ts";
import type { ControllerParts } from "./controller_parts.ts";
import type { ReasonixEvent } from "./events.ts";
import { addReceipt, type TurnTotals } from "./turn_outcome.ts";

export async function recordUsage(
  parts: ControllerParts,
  result: ChatResult,
  counted: { totals: TurnTotals; request: number },
): Promise<ReasonixEvent> {
  const at = (parts.now ?? (() => new Date()))();
  const receipt = receiptFor(result.usage, priceFor(parts.model, parts.providerConfig.price), at);
  addReceipt(counted.totals, result.usage, receipt);
  const [record] = await parts.log.append({
    type: "usage",
    usage: result.usage,
    model: parts.model,
    cost: receipt.cost,
    currency: receipt.currency,
    at: at.toISOString(),
  });
  return {
    type: "usage",
    seq: record!.seq,
    request: counted.request,
    model: parts.model,
    usage: result.usage,
    hitRatio: receipt.hitRatio,
    cost: receipt.cost,
    currency: receipt.currency,
  };
}
