/**
 * @module
 * The `--metrics` summary of one run, with the Go Reasonix's field names where they exist.
 */
import type { TurnTotals } from "../../control/mod.ts";
import { roundCost } from "./result.ts";

export function buildMetrics(
  totals: TurnTotals,
  options: { outcome: string; durationMs: number },
): Record<string, unknown> {
  const u = totals.usage;
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    cache_hit_tokens: u.cacheHitTokens,
    cache_miss_tokens: u.cacheMissTokens,
    reasoning_tokens: u.reasoningTokens,
    cache_hit_ratio: u.promptTokens > 0 ? u.cacheHitTokens / u.promptTokens : 0,
    steps: totals.modelCalls,
    cost: totals.cost === null ? null : roundCost(totals.cost),
    currency: totals.currency,
    compactions: 0,
    duration_ms: options.durationMs,
    outcome: options.outcome,
    tool_calls: totals.toolCalls,
    tool_failures: totals.toolFailures,
    retries: totals.retries,
    tool_calls_by_name: totals.toolCallsByName,
  };
}
