import assert from "node:assert/strict";
import { createTextOutput, type TextOutputOptions } from "../../../src/frontends/run/text_output.ts";
import type { ReasonixEvent } from "../../../src/control/mod.ts";

/** What reached stdout and stderr, and both in the order a shared terminal shows them. */
function capture(overrides: Partial<TextOutputOptions> = {}) {
  const seen = { stdout: "", stderr: "", both: "" };
  const render = createTextOutput({
    write: (t) => (seen.stdout += t, seen.both += t),
    writeInfo: (t) => (seen.stderr += t, seen.both += t),
    color: false,
    showThinking: false,
    answerOnly: false,
    ...overrides,
  });
  return { seen, render };
}

const USAGE: ReasonixEvent = {
  type: "usage",
  request: 1,
  model: "m",
  usage: { promptTokens: 10, completionTokens: 2, cacheHitTokens: 8, cacheMissTokens: 2, reasoningTokens: 0 },
  hitRatio: 0.8,
  cost: 0.001,
  currency: "CNY",
};

function toolCallReply(name: string, args: string): ReasonixEvent[] {
  return [
    {
      type: "message",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name, arguments: args } }],
      },
    },
    USAGE,
    { type: "tool_call", callId: "c1", name, arguments: args, readOnly: false },
  ];
}

Deno.test("createTextOutput() keeps stdout for the answer and tells calls, outcomes and receipts on stderr", () => {
  const { seen, render } = capture();
  render({ type: "text", text: "Let me run it." });
  for (const event of toolCallReply("bash", `{"command":"node test.js"}`)) render(event);
  render({
    type: "tool_result",
    callId: "c1",
    name: "bash",
    ok: true,
    output: "…",
    durationMs: 5,
    readOnly: false,
    data: { kind: "bash", exitCode: 0, durationMs: 5, timedOut: false, signal: null, lines: 12 },
  });
  render({ type: "text", text: "All " });
  render({ type: "text", text: "green." });
  render({ type: "turn_done", subtype: "success", result: "All green." });
  assert.equal(seen.stdout, "Let me run it.\nAll green.\n");
  assert.equal(
    seen.stderr,
    `  -> bash {"command":"node test.js"}\n` +
      "  · 12 tok · in 10 (8 cached / 2 new, 80% hit) · out 2 · ¥0.001000\n" +
      "    ✓ bash node test.js → exit 0, 12 lines\n",
  );
  assert.ok(seen.both.startsWith("Let me run it.\n  -> bash"), "the answer's line ends before stderr writes");
});

Deno.test("createTextOutput() tells a failed call with its reason, in red on a colour terminal", () => {
  const { seen, render } = capture({ color: true });
  for (const event of toolCallReply("edit_file", `{"path":"a.ts"}`)) render(event);
  render({
    type: "tool_result",
    callId: "c1",
    name: "edit_file",
    ok: false,
    output: "old_string not found\nin a.ts",
    code: "tool.edit_no_match",
    durationMs: 1,
    readOnly: false,
  });
  assert.ok(
    seen.stderr.endsWith("\x1b[31m    ✗ edit_file: old_string not found in a.ts\n\x1b[0m"),
    seen.stderr,
  );
  assert.equal(seen.stdout, "");
});

Deno.test("createTextOutput() shows thinking on stderr and the answer alone on stdout", () => {
  const { seen, render } = capture({ showThinking: true });
  render({ type: "reasoning", text: "Think" });
  render({ type: "reasoning", text: "ing." });
  render({ type: "text", text: "Answer." });
  render({ type: "turn_done", subtype: "success", result: "Answer." });
  assert.equal(seen.stdout, "Answer.\n");
  assert.equal(seen.stderr, "▎ thinking\nThinking.\n");
  assert.equal(seen.both, "▎ thinking\nThinking.\nAnswer.\n");
});

Deno.test("createTextOutput() with -p writes only the answer, and an error on stderr", () => {
  const ok = capture({ answerOnly: true });
  for (const event of toolCallReply("ls", "{}")) ok.render(event);
  ok.render({ type: "text", text: "streamed" });
  ok.render({ type: "turn_done", subtype: "success", result: "The answer." });
  assert.deepEqual([ok.seen.stdout, ok.seen.stderr], ["The answer.\n", ""]);
  const failed = capture({ answerOnly: true });
  failed.render({
    type: "turn_done",
    subtype: "error_during_execution",
    result: "Cannot reach the model",
    error: { code: "provider.network", message: "Cannot reach the model" },
  });
  assert.deepEqual([failed.seen.stdout, failed.seen.stderr], ["", "error: Cannot reach the model\n"]);
});

Deno.test("createTextOutput() removes a sequence split across deltas and keeps only its own colour codes", () => {
  const { seen, render } = capture({ color: true, showThinking: true });
  for (const text of ["plan\x1b]0;", "PWN", "ED\x07 on"]) render({ type: "reasoning", text });
  for (const text of ["Hi \x1b", "]52;c;SGVsbG8=", "\x07there\x1b[", "2J\x9b", "1m!"]) {
    render({ type: "text", text });
  }
  render({ type: "turn_done", subtype: "success", result: "" });
  assert.equal(seen.stdout, "Hi there!\n");
  const ours = seen.stderr.replaceAll("\x1b[2m", "").replaceAll("\x1b[0m", "");
  assert.equal(ours, "▎ thinking\nplan on\n");
});

Deno.test("createTextOutput() flushes an unterminated sequence as text when the answer ends", () => {
  const { seen, render } = capture();
  render({ type: "text", text: "see \x1b]8;;http://x" });
  render({ type: "turn_done", subtype: "success", result: "" });
  assert.equal(seen.stdout, "see 8;;http://x\n");
});

Deno.test("createTextOutput() shows the controls in a tool name and command as marks", () => {
  const { seen, render } = capture();
  for (const event of toolCallReply("bash", `{"command":"echo \\u001b]0;x\\u0007"}`)) render(event);
  render({
    type: "tool_result",
    callId: "c1",
    name: "bash\x1b[2J",
    ok: true,
    output: "",
    durationMs: 1,
    readOnly: false,
    data: { kind: "bash", exitCode: 0, durationMs: 1, timedOut: false, signal: null, lines: 1 },
  });
  assert.ok(!seen.stderr.includes("\x1b"), seen.stderr);
});
