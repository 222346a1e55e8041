/**
 * @module
 * The session's figures across every process that ran it, read from its log: turns, tokens, cost.
 * A face that attaches starts from these, so its "session" numbers never restart at zero. What the
 * session's subagents spent is included (their `subagent_usage` records).
 */
import type { LoggedRecord } from "../session/log.ts";
import { sessionDetails } from "../session/details.ts";
import { childSpendOf } from "../session/child_spend.ts";
import { t } from "../lib/i18n/mod.ts";

import type { SessionFigures } from "../agent/events.ts";

export function sessionFigures(records: readonly LoggedRecord[]): SessionFigures {
  const figures: SessionFigures = { turns: 0, promptTokens: 0, hitTokens: 0, cost: null, currency: null };
  for (const record of records) {
    if (record.type === "entry" && record.entry.kind === "turn") figures.turns = record.entry.turn;
    // A child's requests count here too (its summary record), so the session's hit ratio covers them.
    const spent = record.type === "usage" ? record : childSpendOf(record);
    if (spent === null) continue;
    figures.promptTokens += spent.usage.promptTokens;
    figures.hitTokens += spent.usage.cacheHitTokens;
    if (spent.cost !== null) figures.cost = (figures.cost ?? 0) + spent.cost;
    figures.currency = spent.currency ?? figures.currency;
  }
  const typed = records.some((record) => record.type === "entry" && record.entry.kind === "turn");
  if (!typed) figures.turns = sessionDetails(records).turns;
  return figures;
}

/** `resumed <title> · N turns · <cost> so far`. */
export function resumedNotice(records: readonly LoggedRecord[], id: string): string {
  const details = sessionDetails(records);
  const figures = sessionFigures(records);
  const title = details.title ?? details.firstMessage?.split("\n")[0]?.slice(0, 40) ?? id;
  const cost = figures.cost === null
    ? t("status.unknown")
    : `${figures.cost < 0.01 && figures.cost > 0 ? figures.cost.toFixed(4) : figures.cost.toFixed(2)}${
      figures.currency ? ` ${figures.currency}` : ""
    }`;
  return t("session.resumed_summary", { title, turns: figures.turns, cost });
}
