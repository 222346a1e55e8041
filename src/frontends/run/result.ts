/**
 * @module
 * The `--output-format json` result: the Go Reasonix's fields, so scripts keep working, plus the
 * clearer names (`cache_hit_tokens`, `cache_miss_tokens`) and an `error` object with a code.
 */
import type { ErrorInfo, TurnSubtype, TurnTotals } from "../../control/mod.ts";

export interface RunResultInput {
  subtype: TurnSubtype;
  result: string;
  durationMs: number;
  numTurns: number;
  sessionId: string | null;
  totals: TurnTotals | null;
  error?: ErrorInfo;
}

export function buildRunResult(input: RunResultInput): Record<string, unknown> {
  const result: Record<string, unknown> = {
    type: "result",
    subtype: input.subtype,
    is_error: input.subtype !== "success",
    duration_ms: input.durationMs,
    num_turns: input.numTurns,
    result: input.result,
    session_id: input.sessionId,
  };
  const totals = input.totals;
  // Always present, null when nothing priced was spent, so scripts need no has() checks. total_cost_usd is
  // kept for scripts written against the Go Reasonix: the same number as total_cost, in `currency`.
  const cost = totals?.cost ?? null;
  result.total_cost = cost === null ? null : roundCost(cost);
  result.total_cost_usd = result.total_cost;
  result.currency = cost === null ? null : totals?.currency ?? null;
  if (totals) {
    const u = totals.usage;
    result.usage = {
      input_tokens: u.promptTokens,
      output_tokens: u.completionTokens,
      cache_read_input_tokens: u.cacheHitTokens,
      cache_creation_input_tokens: u.cacheMissTokens,
      cache_hit_tokens: u.cacheHitTokens,
      cache_miss_tokens: u.cacheMissTokens,
      reasoning_tokens: u.reasoningTokens,
    };
    result.cache_hit_ratio = u.promptTokens > 0 ? round4(u.cacheHitTokens / u.promptTokens) : 0;
    result.num_model_calls = totals.modelCalls;
    // usage, cost and cache_hit_ratio above include these (the subagents' requests, recursively).
    result.num_subagent_model_calls = totals.subagentCalls;
    result.num_tool_calls = totals.toolCalls;
  }
  if (input.error) result.error = input.error;
  return result;
}

/** The result of a run that failed before its session started (a usage or config error). */
export function failureResult(error: ErrorInfo, durationMs: number): Record<string, unknown> {
  return buildRunResult({
    subtype: "error_during_execution",
    result: error.message,
    durationMs,
    numTurns: 0,
    sessionId: null,
    totals: null,
    error,
  });
}

/** The redacted closing line of `--events-jsonl`: figures and the error code, never the answer or error text. */
export function runDoneLine(result: Record<string, unknown>): Record<string, unknown> {
  const { result: _answer, error, ...figures } = result;
  const code = (error as { code?: string } | undefined)?.code;
  return {
    schema_version: 1,
    kind: "run_done",
    ok: !result.is_error,
    ...figures,
    ...(code ? { error_code: code } : {}),
  };
}

export function roundCost(value: number): number {
  return Math.round(value * 1e8) / 1e8;
}

function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4;
}
