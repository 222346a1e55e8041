import assert from "node:assert/strict";
import { activityText, nextActivity } from "../../src/control/activity.ts";
import type { ReasonixEvent } from "../../src/control/mod.ts";
import { setLanguage } from "../../src/lib/i18n/mod.ts";

const USAGE = {
  promptTokens: 100,
  completionTokens: 40,
  cacheHitTokens: 0,
  cacheMissTokens: 100,
  reasoningTokens: 0,
};

function follow(events: ReasonixEvent[], start = 1_000) {
  let activity = null;
  let now = start;
  for (const event of events) activity = nextActivity(activity, event, now += 1000);
  return activity;
}

Deno.test("activity: a turn moves through thinking, writing and a tool, and ends with turn_done", () => {
  setLanguage("en");
  const started = nextActivity(null, { type: "turn_started", turn: 1, text: "go" }, 10_000)!;
  assert.equal(activityText(started, 10_000, 0), "⠋ waiting for the model · 0s");
  const thinking = nextActivity(started, { type: "reasoning", text: "x".repeat(400) })!;
  assert.equal(activityText(thinking, 22_500, 1), "⠙ thinking · 12s · ↓ 100 tokens");
  const counted = nextActivity(thinking, {
    type: "usage",
    request: 1,
    model: "m",
    usage: USAGE,
    hitRatio: 0,
    cost: null,
    currency: null,
  })!;
  assert.equal(counted.tokens, 40, "the provider's count replaces the estimate");
  assert.equal(counted.streamed, 0);
  const tool = nextActivity(counted, {
    type: "tool_call",
    callId: "c",
    name: "bash",
    arguments: "{}",
    readOnly: false,
  })!;
  assert.equal(activityText(tool, 10_000 + 75_000, 2), "⠹ running bash · 1m 15s · ↓ 40 tokens");
  const writing = nextActivity(tool, { type: "text", text: "done" })!;
  assert.equal(writing.phase, "writing");
  assert.equal(nextActivity(writing, { type: "turn_done", subtype: "success", result: "done" }), null);
});

Deno.test("activity: a tool name from the model cannot send terminal controls", () => {
  setLanguage("en");
  const started = nextActivity(null, { type: "turn_started", turn: 1, text: "go" }, 0)!;
  const tool = nextActivity(started, {
    type: "tool_call",
    callId: "c",
    name: "bash\x1b]52;c;cGF5bG9hZA==\x07",
    arguments: "{}",
    readOnly: false,
  })!;
  assert.ok(!activityText(tool, 0, 0).includes("\x1b"));
});

Deno.test("activity: nothing is running before a turn starts", () => {
  assert.equal(follow([{ type: "text", text: "stray" }]), null);
  assert.equal(follow([{ type: "turn_started", turn: 1, text: "go" }])?.phase, "waiting");
});
