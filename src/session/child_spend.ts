/**
 * @module
 * What a subagent spent, as its parent's log records it: one `subagent_usage` event when the child
 * ends (finished, failed or cancelled), summing the child's own requests and, recursively, what its
 * children spent. The parent's figures (session cost, tokens, `session list` COST) add these records
 * to its own `usage` records; the child's session keeps its own figures. Bookkeeping only: an event
 * record never reaches the provider.
 */
import { addUsage, emptyUsage, type Usage } from "../provider/provider.ts";
import type { SessionRecord } from "./store.ts";

export const SUBAGENT_USAGE_EVENT = "subagent_usage";

export interface ChildSpend {
  /** The child's session id. */
  session: string;
  /** Completed requests, the child's and its descendants'. */
  requests: number;
  usage: Usage;
  /** null when none of them was priced. */
  cost: number | null;
  currency: string | null;
}

/** The child's spend from its records with a seq above `fromSeq` (a continued child counts the new run). */
export function spendOf(
  session: string,
  records: readonly (SessionRecord & { seq?: number })[],
  fromSeq = 0,
): ChildSpend {
  const spend: ChildSpend = { session, requests: 0, usage: emptyUsage(), cost: null, currency: null };
  for (const record of records) {
    if ((record.seq ?? 0) <= fromSeq) continue;
    if (record.type === "usage") {
      addSpend(spend, { requests: 1, usage: record.usage, cost: record.cost, currency: record.currency });
      continue;
    }
    const child = childSpendOf(record);
    if (child) addSpend(spend, child);
  }
  return spend;
}

export function addSpend(to: Omit<ChildSpend, "session">, add: Omit<ChildSpend, "session">): void {
  to.requests += add.requests;
  to.usage = addUsage(to.usage, add.usage);
  if (add.cost === null) return;
  to.cost = (to.cost ?? 0) + add.cost;
  to.currency = add.currency ?? to.currency;
}

export function spendRecord(spend: ChildSpend, at: Date): SessionRecord {
  return { type: "event", name: SUBAGENT_USAGE_EVENT, data: spend, at: at.toISOString() };
}

/** The spend a `subagent_usage` record holds, checked field by field (the file may be damaged); else null. */
export function childSpendOf(record: SessionRecord): ChildSpend | null {
  if (record.type !== "event" || record.name !== SUBAGENT_USAGE_EVENT) return null;
  const data = record.data as Record<string, unknown> | null;
  if (typeof data !== "object" || data === null) return null;
  const usage = data.usage as Record<string, unknown> | null;
  if (typeof usage !== "object" || usage === null) return null;
  const count = (value: unknown) =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : 0;
  const cost = data.cost;
  return {
    session: typeof data.session === "string" ? data.session : "",
    requests: count(data.requests),
    usage: {
      promptTokens: count(usage.promptTokens),
      completionTokens: count(usage.completionTokens),
      cacheHitTokens: count(usage.cacheHitTokens),
      cacheMissTokens: count(usage.cacheMissTokens),
      reasoningTokens: count(usage.reasoningTokens),
    },
    cost: typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? cost : null,
    currency: typeof data.currency === "string" ? data.currency : null,
  };
}
