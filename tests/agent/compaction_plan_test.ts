/**
 * What survives a compaction, on plain message lists: whole turns, the current turn kept whole, tool
 * calls and results never split, the user's statements pinned, pastes shortened, recent requests rolled.
 */
import assert from "node:assert/strict";
import {
  compactedHistory,
  digestText,
  pinnedMessages,
  planCompaction,
  recentBlock,
  turnGroups,
} from "../../src/agent/compaction_plan.ts";
import { statesFact } from "../../src/agent/fact_statements.ts";
import { compactionBase, isRecentBlock, SUMMARY_OPEN } from "../../src/agent/compaction.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";
import { hostNote } from "../../src/agent/host_note.ts";

const sys: ChatMessage = { role: "system", content: "system" };
const ctx: ChatMessage = { role: "user", content: "<session-context>" };
const user = (content: string): ChatMessage => ({ role: "user", content });
const reply = (content: string): ChatMessage => ({ role: "assistant", content });
const call = (id: string): ChatMessage => ({
  role: "assistant",
  content: null,
  reasoning_content: "r",
  tool_calls: [{ id, type: "function", function: { name: "ls", arguments: "{}" } }],
});
const result = (id: string): ChatMessage => ({
  role: "tool",
  tool_call_id: id,
  name: "ls",
  content: "x".repeat(400),
});

const HISTORY: ChatMessage[] = [
  sys,
  ctx,
  user("The deploy window is Tuesday."),
  call("a"),
  result("a"),
  reply("noted"),
  user("rename the helpers"),
  reply("done"),
  user("now run the tests"),
  call("b"),
  result("b"),
];

Deno.test("turnGroups() keeps tool calls with their results inside one turn", () => {
  const groups = turnGroups(HISTORY.slice(2));
  assert.deepEqual(groups.map((g) => g.length), [4, 2, 3]);
  assert.ok(groups.every((g) => g[0]!.role === "user"));
});

Deno.test("planCompaction() mid-turn keeps the current turn whole and the tail starts at a user message", () => {
  const plan = planCompaction(HISTORY, { tailBudget: 0, midTurn: true });
  assert.deepEqual(plan.head, [sys, ctx]);
  assert.deepEqual(plan.tail, HISTORY.slice(8));
  assert.equal(plan.tail[0]!.role, "user");
  assert.deepEqual(plan.dropped, HISTORY.slice(2, 8));
});

Deno.test("planCompaction() at a turn boundary keeps recent whole turns within the budget only", () => {
  assert.deepEqual(planCompaction(HISTORY, { tailBudget: 0, midTurn: false }).tail, []);
  const plan = planCompaction(HISTORY, { tailBudget: 10_000, midTurn: false });
  assert.deepEqual(plan.dropped, [], "everything fits the budget");
  const some = planCompaction(HISTORY, { tailBudget: 170, midTurn: false });
  assert.deepEqual(some.tail, HISTORY.slice(8), "the last turn fits, the one before does not");
});

Deno.test("compactionBase() keeps every earlier digest, never the recent-requests block", () => {
  const digest = user(`${SUMMARY_OPEN}\nDigest 1`);
  const recent = user(recentBlock(["rename the helpers"])!);
  const history = [sys, ctx, digest, recent, user("next")];
  assert.equal(compactionBase(history), 3);
  assert.ok(isRecentBlock(recent));
  const plan = planCompaction(history, { tailBudget: 0, midTurn: true });
  assert.deepEqual(plan.dropped, [recent], "the old block is replaced, its requests carried on");
  assert.deepEqual(pinnedMessages(plan.dropped, 1000).recent, ["rename the helpers"]);
});

Deno.test("pinnedMessages() pins statements, shortens pastes and keeps the latest requests within budget", () => {
  const paste = "p".repeat(5000);
  const dropped = [
    user("The staging port is 5433."),
    user(`${paste}`),
    user("rename the helpers"),
    user("now run the tests\n\n<turn-context>\nfile changed\n</turn-context>"),
  ];
  const pins = pinnedMessages(dropped, 14);
  assert.equal(pins.facts[0], "The staging port is 5433.");
  assert.ok(pins.facts[1]!.includes("characters archived") && pins.facts[1]!.length < 2000);
  assert.deepEqual(pins.recent, ["now run the tests"], "turn notes stripped, budget respected");
});

Deno.test("statesFact() tells statements from requests and questions", () => {
  assert.ok(statesFact("We use pnpm, never npm."));
  assert.ok(statesFact("My name is Ada."));
  assert.ok(!statesFact("what is in big.txt?"));
  assert.ok(!statesFact("run the tests"));
});

Deno.test("statesFact() also pins Chinese statements, not Chinese questions or requests", () => {
  assert.ok(statesFact("我们的项目用 pnpm，不要用 npm。"));
  assert.ok(
    statesFact("数据库在 db-3 上，端口 5433"),
    "a Chinese statement without 是 still has its place word",
  );
  assert.ok(statesFact("部署目标是 staging-eu"));
  assert.ok(!statesFact("这个文件是做什么的？"));
  assert.ok(!statesFact("测试通过了吗"));
  assert.ok(!statesFact("继续"));
  assert.ok(!statesFact("运行测试"));
});

Deno.test("compactedHistory() puts the digest and the recent block between the head and the tail", () => {
  const plan = planCompaction(HISTORY, { tailBudget: 0, midTurn: true });
  const digest = digestText({ number: 1, facts: ["The deploy window is Tuesday."], summary: "S" });
  const messages = compactedHistory(plan, digest, recentBlock(["rename the helpers"]));
  assert.equal(messages.length, 2 + 2 + 3);
  assert.ok(
    String(messages[2]!.content).includes("<user-message>\nThe deploy window is Tuesday.\n</user-message>"),
  );
  assert.ok(isRecentBlock(messages[3]));
  assert.equal(messages[4]!.content, "now run the tests");
});

Deno.test("planCompaction() splits a current turn that fills the window: task and latest step kept", () => {
  const turn = [user("do it all"), call("a"), result("a"), call("b"), result("b"), call("c"), result("c")];
  const history = [sys, ctx, ...turn];
  const plan = planCompaction(history, { tailBudget: 0, midTurn: true, splitCurrent: true });
  assert.deepEqual(plan.tail, [turn[0], call("c"), result("c")]);
  assert.deepEqual(plan.dropped, turn.slice(1, 5));
  const roomy = planCompaction(history, { tailBudget: 350, midTurn: true, splitCurrent: true });
  assert.deepEqual(roomy.tail, [turn[0], ...turn.slice(3)], "the latest steps within the budget");
});

Deno.test("turnGroups() keeps a host note inside the turn it refused an answer of, and never pins it", () => {
  const note = user(hostNote("Verified delivery: your answer is not accepted yet. You must verify"));
  const answer: ChatMessage = { role: "assistant", content: "Done." };
  const groups = turnGroups([user("fix a.txt"), answer, note, answer, user("next")]);
  assert.deepEqual(groups.map((group) => group.length), [4, 1]);
  assert.deepEqual(pinnedMessages([user("fix a.txt"), answer, note], 1000).facts, []);
});
