import assert from "node:assert/strict";
import { comparePrefix, prefixParts } from "../../src/session/prefix_diff.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";

const tools = (desc: string) =>
  JSON.stringify([
    { function: { description: "a", name: "alpha", parameters: {} }, type: "function" },
    { function: { description: desc, name: "beta", parameters: {} }, type: "function" },
  ]);

const base: ChatMessage[] = [
  { role: "system", content: "You are Reasonix." },
  { role: "user", content: "hi" },
];
const answer: ChatMessage = {
  role: "assistant",
  content: null,
  reasoning_content: "think",
  tool_calls: [{ id: "c1", type: "function", function: { name: "alpha", arguments: `{"a":1}` } }],
};

Deno.test("comparePrefix() calls an exact replay intact", () => {
  const before = prefixParts([...base, answer], tools("b"));
  const after = prefixParts([...base, answer, {
    role: "tool",
    content: "ok",
    tool_call_id: "c1",
    name: "alpha",
  }], tools("b"));
  assert.deepEqual(comparePrefix(before, after), { kind: "intact" });
});

Deno.test("comparePrefix() names the tool schema that changed", () => {
  const verdict = comparePrefix(prefixParts(base, tools("old")), prefixParts(base, tools("new")));
  assert.equal(verdict.kind, "changed");
  if (verdict.kind !== "changed") return;
  assert.equal(verdict.label, "tool schema of beta");
  assert.match(verdict.before, /old/);
  assert.match(verdict.after, /new/);
});

Deno.test("comparePrefix() finds re-serialised tool-call arguments and dropped reasoning", () => {
  const reserialised = {
    ...answer,
    tool_calls: [{ ...answer.tool_calls![0]!, function: { name: "alpha", arguments: `{"a": 1}` } }],
  };
  const args = comparePrefix(prefixParts([...base, answer]), prefixParts([...base, reserialised]));
  assert.equal(args.kind === "changed" && args.label, "tool-call arguments of message 2 (alpha)");
  const { reasoning_content: _dropped, ...noReasoning } = answer;
  const reasoning = comparePrefix(prefixParts([...base, answer]), prefixParts([...base, noReasoning]));
  assert.equal(
    reasoning.kind === "changed" && reasoning.label,
    "reasoning of message 2 (now message 2 (assistant))",
  );
});

Deno.test("comparePrefix() reports a shorter request as a reset", () => {
  assert.deepEqual(comparePrefix(prefixParts([...base, answer]), prefixParts(base.slice(0, 1))), {
    kind: "reset",
    keptParts: 1,
  });
});
