/**
 * @module
 * Carries out a snip (src/agent/snip.ts) durably: originals archived, a `compaction` record with
 * reason "snip" replaces the replayed history, a notice says what it saved. The price check uses the
 * session model's real prices; without a known price the DeepSeek flash ratio (hit = miss / 50) stands in.
 */
import { planSnip, snipPays } from "../agent/snip.ts";
import { estimateTokens } from "../agent/compaction.ts";
import type { ReasonixEvent } from "../agent/events.ts";
import type { Price } from "../config/types.ts";
import { priceFor } from "../provider/pricing.ts";
import type { SessionLog } from "../session/log.ts";
import { archiveName, tryArchive } from "../session/archive.ts";

export interface SnipParts {
  log: SessionLog;
  model: string;
  price?: Price;
  toolsJson: string;
  archiveDir?: string;
  now: () => Date;
  emit: (event: ReasonixEvent) => void;
}

export interface SnipRequest {
  tailBudget: number;
  /** Requests expected before a compaction would happen anyway. */
  remainingRequests: number;
  /** At the compact ratio a snip runs before the summary whatever the price check says. */
  force: boolean;
  beforeTokens: number;
}

/** Tool calls whose result must stay whole: the tool failed or the call was blocked. */
function failedCalls(log: SessionLog): Set<string> {
  const failed = new Set<string>();
  for (const record of log.since(0)) {
    if (record.type !== "message" || record.message.role !== "tool") continue;
    if (record.tool && !record.tool.ok) failed.add(record.message.tool_call_id);
  }
  return failed;
}

/** The estimated tokens after the snip; "none" when nothing qualified, "skipped" when it would not pay. */
export async function snipStale(
  parts: SnipParts,
  request: SnipRequest,
): Promise<number | "none" | "skipped"> {
  const at = parts.now();
  const failed = failedCalls(parts.log);
  const name = `archive/${archiveName(at)}`;
  const plan = planSnip(parts.log.messages(), {
    tailBudget: request.tailBudget,
    keep: (id) => failed.has(id),
    ...(parts.archiveDir ? { archive: name } : {}),
  });
  if (!plan) return "none";
  const price = priceFor(parts.model, parts.price);
  const money = price
    ? { hit: price.cacheHit, miss: price.input, remainingRequests: request.remainingRequests }
    : { hit: 1, miss: 50, remainingRequests: request.remainingRequests };
  if (!request.force && !snipPays(plan, money)) {
    parts.emit({
      type: "notice",
      message: `Snip skipped: it would save ~${plan.savedTokens} tokens a request but re-send ` +
        `~${plan.rewrittenTokens} as cache misses`,
    });
    return "skipped";
  }
  const warn = (message: string) => parts.emit({ type: "warning", message });
  await tryArchive(parts.archiveDir, { session: parts.log.id, at, messages: plan.originals }, warn);
  const afterTokens = estimateTokens(plan.messages, parts.toolsJson);
  await parts.log.append({
    type: "compaction",
    messages: plan.messages,
    reason: "snip",
    beforeTokens: request.beforeTokens,
    afterTokens,
    at: at.toISOString(),
  });
  parts.emit({
    type: "notice",
    message:
      `Snipped ${plan.originals.length} old tool results: ~${request.beforeTokens} → ~${afterTokens} tokens`,
  });
  return afterTokens;
}
