import assert from "node:assert/strict";
import { initialState, reduce } from "../../../src/frontends/tui/state.ts";
import type { ReasonixEvent } from "../../../src/control/events.ts";

const usage = {
  promptTokens: 1000,
  completionTokens: 10,
  cacheHitTokens: 900,
  cacheMissTokens: 100,
  reasoningTokens: 0,
};

function spent(depth: number, cost: number): ReasonixEvent {
  return {
    type: "subagent",
    phase: "spent",
    sessionId: `c${depth}`,
    parentId: "p",
    depth,
    description: "d",
    writer: false,
    spent: { requests: 2, usage, cost, currency: "CNY" },
  };
}

Deno.test("status line: a direct child's spend adds to the turn and session cost and the session's hit tokens", () => {
  const own: ReasonixEvent = {
    type: "usage",
    request: 1,
    model: "m",
    usage: { ...usage, promptTokens: 500, cacheHitTokens: 100 },
    hitRatio: 0.2,
    cost: 0.5,
    currency: "CNY",
  };
  // A grandchild's spent event (depth 2) is already inside its parent's spend: counted once.
  const state = [own, spent(2, 0.25), spent(1, 1)].reduce(reduce, initialState());
  assert.equal(state.status.costSession, 1.5);
  assert.equal(state.status.costTurn, 1.5);
  assert.equal(state.status.sessionPromptTokens, 1500);
  assert.equal(state.status.sessionHitTokens, 1000);
  assert.equal(state.status.contextTokens, 500, "the context fill stays the session's own");
  assert.equal(state.status.turnHitRatio, 0.2, "the turn's hit ratio stays the session's own requests");
});
