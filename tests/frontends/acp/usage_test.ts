import assert from "node:assert/strict";
import { UsageGauge } from "../../../src/frontends/acp/usage.ts";
import type { ReasonixEvent } from "../../../src/control/events.ts";

const usage = {
  promptTokens: 300,
  completionTokens: 20,
  cacheHitTokens: 200,
  cacheMissTokens: 100,
  reasoningTokens: 0,
};

function spent(depth: number, cost: number): ReasonixEvent & { type: "subagent" } {
  const base = { sessionId: `c${depth}`, parentId: "p", depth, description: "", writer: false };
  return { type: "subagent", phase: "spent", ...base, spent: { requests: 1, usage, cost, currency: "CNY" } };
}

Deno.test("UsageGauge: a direct child's spend adds to the cost, not to the context gauge", () => {
  const gauge = new UsageGauge();
  assert.equal(
    gauge.add({ type: "usage", request: 1, model: "m", usage, hitRatio: 0.6, cost: 0.5, currency: "CNY" }),
    true,
  );
  assert.equal(gauge.add(spent(2, 0.25)), false, "a grandchild is inside its parent's spend");
  assert.equal(gauge.add(spent(1, 1)), true);
  const started: ReasonixEvent & { type: "subagent" } = { ...spent(1, 0), phase: "started" };
  delete started.spent;
  assert.equal(gauge.add(started), false);
  assert.deepEqual(gauge.update(1000), {
    sessionUpdate: "usage_update",
    used: 320,
    size: 1000,
    cost: { amount: 1.5, currency: "CNY" },
  });
});
