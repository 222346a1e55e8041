/** The snip's plan and price check on plain message lists. */
import assert from "node:assert/strict";
import { planSnip, snipPays, snipText } from "../../src/agent/snip.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";

const call = (id: string): ChatMessage => ({
  role: "assistant",
  content: null,
  reasoning_content: "r",
  tool_calls: [{ id, type: "function", function: { name: "ls", arguments: "{}" } }],
});
const result = (id: string, size: number): ChatMessage => ({
  role: "tool",
  tool_call_id: id,
  name: "ls",
  content: "line of output\n".repeat(size),
});
const HISTORY: ChatMessage[] = [
  { role: "system", content: "s" },
  { role: "user", content: "<session-context>" },
  { role: "user", content: "one" },
  call("a"),
  result("a", 400),
  call("e"),
  result("e", 400),
  { role: "assistant", content: "done" },
  { role: "user", content: "two" },
  call("b"),
  result("b", 400),
];

Deno.test("planSnip() shortens stale results only, keeps failed ones and the current turn", () => {
  const plan = planSnip(HISTORY, { tailBudget: 0, keep: (id) => id === "e" })!;
  assert.equal(plan.first, 4);
  assert.equal(plan.originals.length, 1);
  assert.equal(plan.messages[4]!.content, snipText(String(HISTORY[4]!.content)));
  assert.deepEqual(plan.messages.slice(5), HISTORY.slice(5));
  assert.ok(plan.savedTokens > 1000);
  assert.equal(planSnip(plan.messages, { tailBudget: 0, keep: (id) => id === "e" }), null, "never twice");
});

Deno.test("snipPays() weighs hit savings on the coming requests against one re-sent suffix of misses", () => {
  const flash = { hit: 0.04, miss: 2 };
  const plan = { savedTokens: 100_000, rewrittenTokens: 300_000 };
  assert.equal(snipPays(plan, { ...flash, remainingRequests: 100 }), false);
  assert.equal(snipPays(plan, { ...flash, remainingRequests: 200 }), true);
});
