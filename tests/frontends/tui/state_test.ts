import assert from "node:assert/strict";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import { initialState, reduce, type TuiState, visibleEntries } from "../../../src/frontends/tui/state.ts";
import type { ApprovalRequest, ReasonixEvent } from "../../../src/control/events.ts";
import type { ScriptedReply } from "../../support/deepseek_sim.ts";
import { withController } from "../../support/controller_session.ts";

function fold(events: ReasonixEvent[], state: TuiState = initialState()): TuiState {
  return events.reduce(reduce, state);
}

const USAGE = {
  promptTokens: 1000,
  completionTokens: 50,
  cacheHitTokens: 800,
  cacheMissTokens: 200,
  reasoningTokens: 10,
};

function usage(cost: number | null): ReasonixEvent {
  return { type: "usage", request: 1, model: "m", usage: USAGE, hitRatio: 0.8, cost, currency: "USD" };
}

function approval(id: string, callId: string): ApprovalRequest {
  return {
    id,
    callId,
    tool: "bash",
    arguments: `{"command":"rm x"}`,
    subject: "rm x",
    preview: null,
    explanation: { decision: "ask", tier: "tier1", rule: null, reason: "writes" },
    suggestedRule: null,
    mode: "ask",
  };
}

Deno.test("reduce() streams reasoning then folds it when the answer starts", () => {
  const state = fold([
    { type: "turn_started", turn: 1, text: "hi" },
    { type: "reasoning", text: "let me " },
    { type: "reasoning", text: "think" },
  ]);
  assert.deepEqual(state.live, {
    kind: "reasoning",
    id: "e2",
    text: "let me think",
    streaming: true,
    folded: false,
  });
  assert.equal(state.status.busy, true);
  const answered = fold([{ type: "text", text: "Hel" }, { type: "text", text: "lo" }], state);
  assert.deepEqual(answered.entries.map((entry) => entry.kind), ["user", "reasoning"]);
  const reasoning = answered.entries[1]!;
  assert.ok(reasoning.kind === "reasoning" && reasoning.folded && !reasoning.streaming);
  assert.deepEqual(answered.live, { kind: "answer", id: "e3", text: "Hello", streaming: true });
  const done = reduce(answered, { type: "turn_done", subtype: "success", result: "Hello" });
  assert.equal(done.live, null);
  assert.deepEqual(done.entries.at(-1), { kind: "answer", id: "e3", text: "Hello", streaming: false });
  assert.equal(done.status.busy, false);
  assert.equal(visibleEntries(done).length, 3);
});

Deno.test("reduce() turns a tool call into a running entry and its result into a folded ok/error", () => {
  const state = fold([
    { type: "turn_started", turn: 1, text: "read" },
    { type: "text", text: "Reading." },
    { type: "tool_call", callId: "c1", name: "read_file", arguments: `{"path":"a"}`, readOnly: true },
    { type: "tool_call", callId: "c2", name: "bash", arguments: `{"command":"x"}`, readOnly: false },
  ]);
  const running = state.entries.filter((entry) => entry.kind === "tool");
  assert.deepEqual(running.map((entry) => entry.kind === "tool" && entry.status), ["running", "running"]);
  assert.equal(state.live, null, "the answer settles before the tool runs");
  const done = fold([
    {
      type: "tool_result",
      callId: "c2",
      name: "bash",
      ok: false,
      output: "boom",
      code: "tool.exit",
      durationMs: 12,
      readOnly: false,
    },
    {
      type: "tool_result",
      callId: "c1",
      name: "read_file",
      ok: true,
      output: "alpha",
      durationMs: 3,
      readOnly: true,
    },
  ], state);
  const tools = done.entries.filter((entry) => entry.kind === "tool");
  assert.equal(tools.length, 2, "results update the running entries in place");
  const [read, bash] = tools;
  assert.ok(read?.kind === "tool" && bash?.kind === "tool");
  assert.deepEqual(
    [read.status, read.output, read.durationMs, read.folded, read.arguments],
    ["ok", "alpha", 3, true, `{"path":"a"}`],
  );
  assert.deepEqual([bash.status, bash.code, bash.durationMs], ["error", "tool.exit", 12]);
});

Deno.test("reduce() adds a todo entry from the typed data of a todo tool, never from its text", () => {
  const output = "[x] plan\n[>] build\n[ ] test\n(1 completed, 1 in progress, 1 pending)";
  const items = [
    { content: "plan", status: "completed" as const },
    { content: "build", status: "in_progress" as const },
    { content: "test", status: "pending" as const },
  ];
  const state = fold([
    { type: "tool_call", callId: "t", name: "todo_write", arguments: "{}", readOnly: true },
    {
      type: "tool_result",
      callId: "t",
      name: "todo_write",
      ok: true,
      output,
      durationMs: 1,
      readOnly: true,
      data: { kind: "todo", items },
    },
    { type: "tool_call", callId: "b", name: "bash", arguments: "{}", readOnly: false },
    {
      type: "tool_result",
      callId: "b",
      name: "bash",
      ok: true,
      output: "[x] no",
      durationMs: 1,
      readOnly: false,
    },
  ]);
  assert.deepEqual(state.entries[1], { kind: "todo", id: "e2", items });
  assert.equal(state.entries.filter((entry) => entry.kind === "todo").length, 1);
});

Deno.test("reduce() adds a receipt per usage event and keeps turn and session totals", () => {
  const turnOne = fold([
    { type: "session_started", sessionId: "s", resumed: false, model: "deepseek-flash", provider: "ds" },
    { type: "turn_started", turn: 1, text: "a" },
    usage(0.01),
    usage(0.02),
  ]);
  assert.equal(turnOne.entries.filter((entry) => entry.kind === "usage").length, 2);
  const receipt = turnOne.entries.at(-1);
  assert.ok(receipt?.kind === "usage");
  assert.deepEqual(receipt.receipt, {
    promptTokens: 1000,
    hitTokens: 800,
    missTokens: 200,
    completionTokens: 50,
    hitRatio: 0.8,
    cost: 0.02,
    currency: "USD",
  });
  assert.equal(turnOne.status.model, "deepseek-flash");
  assert.equal(turnOne.status.sessionPromptTokens, 2000);
  assert.equal(turnOne.status.sessionHitTokens, 1600);
  assert.equal(turnOne.status.turnHitRatio, 0.8);
  assert.ok(Math.abs(turnOne.status.costTurn! - 0.03) < 1e-12);
  const turnTwo = fold([{ type: "turn_started", turn: 2, text: "b" }, usage(null)], turnOne);
  assert.equal(turnTwo.status.turn, 2);
  assert.equal(turnTwo.status.costTurn, null, "an unpriced call leaves the new turn's cost unknown");
  assert.ok(Math.abs(turnTwo.status.costSession! - 0.03) < 1e-12);
  assert.equal(turnTwo.status.currency, "USD");
});

Deno.test("reduce() queues approvals and marks a denied call", () => {
  const state = fold([
    { type: "tool_call", callId: "c1", name: "bash", arguments: "{}", readOnly: false },
    { type: "approval_requested", request: approval("a1", "c1") },
    { type: "approval_requested", request: approval("a2", "c2") },
  ]);
  assert.equal(state.status.pendingApproval?.id, "a1");
  const denied = reduce(state, { type: "approval_resolved", id: "a1", choice: "deny" });
  assert.equal(denied.status.pendingApproval?.id, "a2");
  const tool = denied.entries[0];
  assert.ok(tool?.kind === "tool" && tool.status === "denied");
  const result = reduce(denied, {
    type: "tool_result",
    callId: "c1",
    name: "bash",
    ok: false,
    output: "denied",
    durationMs: 0,
    readOnly: false,
  });
  const after = result.entries[0];
  assert.ok(after?.kind === "tool" && after.status === "denied" && after.output === "denied");
  const cleared = reduce(result, { type: "approval_resolved", id: "a2", choice: "allow_once" });
  assert.equal(cleared.status.pendingApproval, null);
});

Deno.test("reduce() shows warnings, compaction and failed turns as notices", () => {
  const state = fold([
    { type: "warning", message: "config key ignored" },
    { type: "compaction", beforeTokens: 9000, afterTokens: 1200, reason: "manual" },
    { type: "turn_started", turn: 1, text: "x" },
    {
      type: "turn_done",
      subtype: "error_during_execution",
      result: "failed",
      error: { code: "net", message: "connection refused", hint: "check base_url" },
    },
  ]);
  const notices = state.entries.filter((entry) => entry.kind === "notice");
  assert.deepEqual(notices.map((entry) => entry.kind === "notice" && entry.level), [
    "warning",
    "info",
    "error",
  ]);
  const [, compaction, failure] = notices;
  assert.ok(compaction?.kind === "notice" && /9000 → 1200/.test(compaction.text));
  assert.ok(failure?.kind === "notice" && failure.text === "connection refused\ncheck base_url");
});

Deno.test("reduce() shows a turn the person interrupted as a notice, not an error", () => {
  setLanguage("en");
  const state = fold([
    { type: "turn_started", turn: 1, text: "x" },
    {
      type: "turn_done",
      subtype: "error_during_execution",
      result: "Interrupted",
      error: { code: "turn.interrupted", message: "Interrupted by the user" },
    },
  ]);
  const notices = state.entries.filter((entry) => entry.kind === "notice");
  assert.deepEqual(notices.map((entry) => entry.kind === "notice" && [entry.level, entry.text]), [
    ["info", "Interrupted"],
  ]);
  assert.equal(state.status.busy, false);
});

Deno.test("reduce() folds a real Controller turn from the simulator", async () => {
  const script: ScriptedReply[] = [
    {
      reasoning: "Plan first.",
      toolCalls: [{
        name: "todo_write",
        arguments: JSON.stringify({ todos: [{ content: "read a.txt", status: "in_progress" }] }),
      }],
    },
    { content: "All done." },
  ];
  let state = initialState();
  let promptTokens = () => Number.NaN;
  await withController({ script, files: { "a.txt": "alpha\n" }, flags: {} }, async ({ sim, controller }) => {
    promptTokens = () => sim.stats().promptTokens;
    controller.subscribe((event) => state = reduce(state, event));
    controller.start();
    await controller.runTurn("make a plan");
  });
  const kinds = state.entries.map((entry) => entry.kind);
  assert.equal(kinds[0], "user");
  assert.ok(kinds.includes("tool") && kinds.includes("todo") && kinds.includes("usage"), kinds.join());
  assert.equal(state.entries.filter((entry) => entry.kind === "usage").length, 2);
  const todo = state.entries.find((entry) => entry.kind === "todo");
  assert.deepEqual(todo?.kind === "todo" && todo.items, [{ content: "read a.txt", status: "in_progress" }]);
  assert.deepEqual(kinds.slice(-2), ["answer", "usage"], "a receipt follows the call it prices");
  const answer = state.entries.at(-2);
  assert.ok(answer?.kind === "answer" && answer.text === "All done." && !answer.streaming, kinds.join());
  assert.equal(state.live, null);
  assert.equal(state.status.busy, false);
  assert.equal(state.status.turn, 1);
  assert.equal(state.status.sessionPromptTokens, promptTokens());
});

Deno.test("reduce() shows a slash command's answer as an info notice after what is settled", () => {
  const before = fold([{ type: "turn_started", turn: 1, text: "hi" }]);
  const after = reduce(before, { type: "command_output", text: "Unknown command /x." });
  assert.deepEqual(after.entries.at(-1), {
    kind: "notice",
    id: after.entries.at(-1)!.id,
    level: "info",
    text: "Unknown command /x.",
  });
  assert.equal(after.entries.length, before.entries.length + 1);
});
