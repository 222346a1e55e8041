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

Deno.test("createTextOutput() removes a sequence split across deltas and keeps only its own colour codes", () => {
  let out = "";
  const render = createTextOutput({
    write: (t) => out += t,
    color: true,
    showThinking: true,
    answerOnly: false,
  });
  for (const text of ["plan\x1b]0;", "PWN", "ED\x07 on"]) render({ type: "reasoning", text });
  for (const text of ["Hi \x1b", "]52;c;SGVsbG8=", "\x07there\x1b[", "2J\x9b", "1m!"]) {
    render({ type: "text", text });
  }
  render({ type: "turn_done", subtype: "success", result: "" });
  const ours = out.replaceAll("\x1b[2m", "").replaceAll("\x1b[0m", "");
  assert.equal(ours, "▎ thinking\nplan on\nHi there!\n");
});

Deno.test("createTextOutput() flushes an unterminated sequence as text when the answer ends", () => {
  let out = "";
  const render = createTextOutput({
    write: (t) => out += t,
    color: false,
    showThinking: false,
    answerOnly: false,
  });
  render({ type: "text", text: "see \x1b]8;;http://x" });
  render({ type: "turn_done", subtype: "success", result: "" });
  assert.equal(out, "see 8;;http://x\n");
});
