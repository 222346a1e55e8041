import assert from "node:assert/strict";
import { Redactor } from "../../../src/frontends/run/event_lines.ts";
import { buildRunResult } from "../../../src/frontends/run/result.ts";
import { exitCodeFor } from "../../../src/frontends/cli/report_error.ts";

Deno.test("Redactor.line() drops content and pseudonymises tools", () => {
  const r = new Redactor();
  assert.equal(r.line({ type: "text", text: "secret" }), null);
  const call = r.line({
    type: "tool_call",
    callId: "c9",
    name: "bash",
    arguments: `{"command":"cat key"}`,
    readOnly: false,
  });
  assert.deepEqual(call, {
    schema_version: 1,
    sequence: 1,
    kind: "tool_call",
    tool_id: "tool_1",
    tool_name: "tool_name_1",
    tool_read_only: false,
  });
  const result = r.line({
    type: "tool_result",
    callId: "c9",
    name: "bash",
    ok: true,
    output: "KEY",
    durationMs: 5,
    readOnly: false,
  });
  assert.equal(JSON.stringify(result).includes("KEY"), false);
  assert.equal(result!.tool_id, "tool_1");
});

Deno.test("buildRunResult() mirrors the Go fields and adds clear cache names", () => {
  const result = buildRunResult({
    subtype: "success",
    result: "ok",
    durationMs: 12,
    numTurns: 1,
    sessionId: "s",
    totals: {
      usage: {
        promptTokens: 100,
        completionTokens: 5,
        cacheHitTokens: 80,
        cacheMissTokens: 20,
        reasoningTokens: 1,
      },
      cost: 0.000123456789,
      currency: "CNY",
      modelCalls: 2,
      subagentCalls: 3,
      toolCalls: 1,
      toolFailures: 0,
      toolCallsByName: {},
      retries: 0,
      turns: 1,
    },
  });
  assert.equal(result.total_cost, 0.00012346);
  assert.equal(result.total_cost_usd, result.total_cost);
  assert.deepEqual(result.usage, {
    input_tokens: 100,
    output_tokens: 5,
    cache_read_input_tokens: 80,
    cache_creation_input_tokens: 20,
    cache_hit_tokens: 80,
    cache_miss_tokens: 20,
    reasoning_tokens: 1,
  });
  assert.equal(result.cache_hit_ratio, 0.8);
  assert.equal(result.num_model_calls, 2);
  assert.equal(result.num_subagent_model_calls, 3);
});

Deno.test("exitCodeFor() maps error codes to documented exit codes", () => {
  assert.equal(exitCodeFor(null), 0);
  assert.equal(exitCodeFor("config.parse"), 2);
  assert.equal(exitCodeFor("config.missing_key"), 1);
  assert.equal(exitCodeFor("provider.server"), 3);
  assert.equal(exitCodeFor("provider.auth"), 1);
  assert.equal(exitCodeFor("turn.interrupted"), 130);
  assert.equal(exitCodeFor("turn.terminated"), 143);
  assert.equal(exitCodeFor("turn.hangup"), 129);
  assert.equal(exitCodeFor("turn.max_steps"), 1);
});

Deno.test("buildRunResult() always carries the cost fields, null when nothing is priced", () => {
  const base = { subtype: "success" as const, result: "ok", durationMs: 1, numTurns: 1, sessionId: null };
  const usage = {
    promptTokens: 1,
    completionTokens: 1,
    cacheHitTokens: 0,
    cacheMissTokens: 1,
    reasoningTokens: 0,
  };
  const unpriced = {
    usage,
    cost: null,
    currency: null,
    modelCalls: 1,
    subagentCalls: 0,
    toolCalls: 0,
    toolFailures: 0,
    toolCallsByName: {},
    retries: 0,
    turns: 1,
  };
  for (const totals of [null, unpriced]) {
    const result = buildRunResult({ ...base, totals });
    assert.deepEqual(
      [result.total_cost, result.total_cost_usd, result.currency],
      [null, null, null],
    );
    assert.ok(["total_cost", "total_cost_usd", "currency"].every((key) => Object.hasOwn(result, key)));
  }
});
