import assert from "node:assert/strict";
import stringWidth from "string-width";
import { initialState, reduce, type StatusLine } from "../../../src/frontends/tui/state.ts";
import { statusText } from "../../../src/frontends/tui/status_line.tsx";
import type { ReasonixEvent } from "../../../src/control/events.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";

function usage(prompt: number, hit: number, cost: number): ReasonixEvent {
  return {
    type: "usage",
    request: 1,
    model: "deepseek-flash",
    usage: {
      promptTokens: prompt,
      completionTokens: 10,
      cacheHitTokens: hit,
      cacheMissTokens: prompt - hit,
      reasoningTokens: 0,
    },
    hitRatio: hit / prompt,
    cost,
    currency: "CNY",
  };
}

function afterTwoTurns(): StatusLine {
  const events: ReasonixEvent[] = [
    { type: "session_started", sessionId: "s", resumed: false, model: "deepseek-flash", provider: "p" },
    { type: "turn_started", turn: 1, text: "a" },
    usage(1000, 0, 0.02),
    { type: "turn_done", subtype: "success", result: "" },
    { type: "turn_started", turn: 2, text: "b" },
    usage(3000, 2400, 0.01),
    { type: "turn_done", subtype: "success", result: "" },
  ];
  return events.reduce(reduce, initialState()).status;
}

const INFO = { mode: "ask", effort: "high", contextWindow: 10_000, runningJobs: 2 };

Deno.test("statusText() shows model, mode, effort, context %, turn and session cache hit and cost, jobs", () => {
  setLanguage("en");
  assert.equal(
    statusText(afterTwoTurns(), INFO),
    "deepseek-flash · ask · effort high · ctx 30% · cache 80% (session 60%) · " +
      "cost 0.01 (session 0.03 CNY) · bg jobs 2",
  );
});

Deno.test("statusText() leaves out what it does not know: no jobs, no window, no request yet", () => {
  setLanguage("en");
  const fresh = initialState().status;
  assert.equal(
    statusText({ ...fresh, model: "m" }, {
      mode: "auto",
      effort: "auto",
      contextWindow: null,
      runningJobs: 0,
    }),
    "m · auto · effort auto · cache — (session 0%) · cost — (session —)",
  );
});

Deno.test("statusText() drops the least important parts first on a narrow terminal, never wrapping", () => {
  setLanguage("en");
  const status = afterTwoTurns();
  const full = statusText(status, INFO);
  const seen: string[] = [];
  for (let width = stringWidth(full); width >= 10; width -= 5) {
    const text = statusText(status, INFO, width);
    assert.ok(stringWidth(text) <= width || !text.includes(" · "), `${width}: ${text}`);
    seen.push(text);
  }
  const at = (width: number) => statusText(status, INFO, width);
  assert.ok(!at(110).includes("effort"), "effort goes first");
  assert.ok(at(110).includes("bg jobs"));
  assert.ok(!at(95).includes("bg jobs"), "then the jobs count");
  assert.equal(at(70), "deepseek-flash · ask · ctx 30% · cost 0.01 (session 0.03 CNY)");
  assert.equal(at(30), "deepseek-flash · ask · ctx 30%");
  assert.equal(at(5), "deepseek-flash", "the model always stays");
  assert.ok(seen.every((text) => text.startsWith("deepseek-flash")));
});

Deno.test("statusText() is translated", () => {
  try {
    setLanguage("zh-CN");
    assert.match(
      statusText(afterTwoTurns(), INFO),
      /上下文 30% · 缓存 80%（会话 60%） · 费用 0\.01（会话 0\.03 CNY）/,
    );
  } finally {
    setLanguage("en");
  }
});

Deno.test("a compaction resets the context share to the compacted size", () => {
  const state = [
    usage(8000, 0, 0),
    { type: "compaction", beforeTokens: 8000, afterTokens: 1000, reason: "manual" } as ReasonixEvent,
  ].reduce(reduce, initialState());
  assert.equal(state.status.contextTokens, 1000);
});
