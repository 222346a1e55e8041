import assert from "node:assert/strict";
import { createTextOutput } from "../../../src/frontends/run/text_output.ts";

Deno.test("createTextOutput() prints a reply's tool calls before its receipt", () => {
  let out = "";
  const render = createTextOutput({
    write: (t) => out += t,
    color: false,
    showThinking: false,
    answerOnly: false,
  });
  render({
    type: "message",
    message: {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c1", type: "function", function: { name: "ls", arguments: "{}" } }],
    },
  });
  render({
    type: "usage",
    request: 1,
    model: "m",
    usage: {
      promptTokens: 10,
      completionTokens: 2,
      cacheHitTokens: 8,
      cacheMissTokens: 2,
      reasoningTokens: 0,
    },
    hitRatio: 0.8,
    cost: 0.001,
    currency: "CNY",
  });
  render({ type: "tool_call", callId: "c1", name: "ls", arguments: "{}", readOnly: true });
  render({ type: "text", text: "Done." });
  assert.equal(
    out,
    "  -> ls {}\n  · 12 tok · in 10 (8 cached / 2 new, 80% hit) · out 2 · ¥0.001000\nDone.",
  );
});
