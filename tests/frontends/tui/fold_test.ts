import assert from "node:assert/strict";
import { initialState, reduce, type TuiState } from "../../../src/frontends/tui/state.ts";
import { settledCount } from "../../../src/frontends/tui/fold.ts";
import { DEFAULT_VIEW, type ViewSettings } from "../../../src/frontends/tui/fold.ts";
import type { ReasonixEvent } from "../../../src/control/events.ts";
import type { LocalAction } from "../../../src/frontends/tui/state.ts";

type Action = ReasonixEvent | LocalAction;

function run(actions: Action[], view: Partial<ViewSettings> = {}): TuiState {
  return actions.reduce(reduce, initialState({ ...DEFAULT_VIEW, ...view }));
}

const OUTPUT = "line 1\nline 2\nline 3\nline 4\nline 5";
const TOOL: Action[] = [
  { type: "turn_started", turn: 1, text: "go" },
  { type: "reasoning", text: "first thought\nsecond thought" },
  { type: "tool_call", callId: "c1", name: "bash", arguments: `{"command":"seq 5"}`, readOnly: false },
  {
    type: "tool_result",
    callId: "c1",
    name: "bash",
    ok: true,
    output: OUTPUT,
    durationMs: 5,
    readOnly: false,
  },
];
const USAGE: Action = {
  type: "usage",
  request: 1,
  model: "m",
  usage: {
    promptTokens: 100,
    completionTokens: 5,
    cacheHitTokens: 50,
    cacheMissTokens: 50,
    reasoningTokens: 0,
  },
  hitRatio: 0.5,
  cost: 0.001,
  currency: "USD",
};

function folds(state: TuiState): [string, boolean][] {
  return state.entries.flatMap((e) =>
    e.kind === "reasoning" || e.kind === "tool" ? [[e.kind, e.folded]] : []
  );
}

Deno.test("by default settled reasoning and tool results fold; verbose keeps the next ones unfolded", () => {
  assert.deepEqual(folds(run(TOOL)), [["reasoning", true], ["tool", true]]);
  const verbose = run([{ type: "set_verbose", on: true }, ...TOOL]);
  assert.deepEqual(folds(verbose), [["reasoning", false], ["tool", false]]);
  assert.equal(verbose.view.verbose, true);
  const off = run([{ type: "set_verbose", on: true }, { type: "set_verbose", on: false }, ...TOOL]);
  assert.deepEqual(folds(off), [["reasoning", true], ["tool", true]]);
});

Deno.test("show_reasoning = false folds reasoning while it streams; verbose overrides it", () => {
  const streaming = run([{ type: "reasoning", text: "thinking" }], { showReasoning: false });
  assert.ok(streaming.live?.kind === "reasoning" && streaming.live.folded);
  const shown = run([{ type: "reasoning", text: "thinking" }]);
  assert.ok(shown.live?.kind === "reasoning" && !shown.live.folded);
  const verbose = run([{ type: "reasoning", text: "x" }, { type: "set_verbose", on: true }], {
    showReasoning: false,
  });
  assert.ok(
    verbose.live?.kind === "reasoning" && !verbose.live.folded,
    "switching verbose on unfolds the live block",
  );
});

Deno.test("show_turn_usage = false adds no receipts but still counts tokens and cost", () => {
  const hidden = run([...TOOL, USAGE], { showTurnUsage: false });
  assert.equal(hidden.entries.filter((entry) => entry.kind === "usage").length, 0);
  assert.equal(hidden.status.sessionPromptTokens, 100);
  assert.equal(hidden.status.costSession, 0.001);
  assert.equal(run([...TOOL, USAGE]).entries.filter((entry) => entry.kind === "usage").length, 1);
});

Deno.test("toggle_fold re-prints the latest settled tool entry unfolded below, then folded again", () => {
  const before = run([...TOOL, USAGE]);
  const once = reduce(before, { type: "toggle_fold" });
  assert.equal(once.entries.length, before.entries.length + 1);
  assert.deepEqual(
    once.entries.slice(0, before.entries.length),
    before.entries,
    "printed entries are untouched",
  );
  const copy = once.entries.at(-1)!;
  assert.ok(copy.kind === "tool" && !copy.folded && copy.output === OUTPUT);
  assert.ok(!before.entries.some((entry) => entry.id === copy.id), "the copy has a new id for <Static>");
  const twice = reduce(once, { type: "toggle_fold" });
  const again = twice.entries.at(-1)!;
  assert.ok(again.kind === "tool" && again.folded);
});

Deno.test("toggle_fold toggles streaming reasoning and a running tool in place", () => {
  const live = reduce(run([{ type: "reasoning", text: "a\nb" }]), { type: "toggle_fold" });
  assert.ok(live.live?.kind === "reasoning" && live.live.folded);
  assert.equal(live.entries.length, 0);
  const running = run([
    { type: "turn_started", turn: 1, text: "go" },
    { type: "tool_call", callId: "c1", name: "bash", arguments: "{}", readOnly: false },
    {
      type: "tool_result",
      callId: "c1",
      name: "bash",
      ok: true,
      output: OUTPUT,
      durationMs: 5,
      readOnly: false,
    },
    { type: "tool_call", callId: "c2", name: "bash", arguments: "{}", readOnly: false },
  ]);
  assert.equal(settledCount(running.entries), running.entries.length - 1);
  const toggled = reduce(running, { type: "toggle_fold" });
  assert.equal(
    toggled.entries.length,
    running.entries.length + 1,
    "the running card has no output: the done one is re-printed",
  );
  const last = toggled.entries.at(-1);
  assert.ok(last?.kind === "tool" && !last.folded && last.callId === "c1");
});

Deno.test("toggle_fold does nothing when there is nothing to fold", () => {
  const state = run([{ type: "turn_started", turn: 1, text: "hi" }, { type: "text", text: "hello" }]);
  assert.equal(reduce(state, { type: "toggle_fold" }), state);
});

Deno.test("an edit's diff from the tool's data settles folded and toggle_fold re-prints it unfolded", () => {
  const data = { kind: "diff" as const, path: "src/x.ts", before: "a\n", after: "a\nb\n" };
  const edit: Action[] = [
    { type: "turn_started", turn: 1, text: "edit" },
    { type: "tool_call", callId: "e1", name: "edit_file", arguments: `{"path":"src/x.ts"}`, readOnly: false },
    {
      type: "tool_result",
      callId: "e1",
      name: "edit_file",
      ok: true,
      output: "Edited src/x.ts",
      durationMs: 3,
      readOnly: false,
      data,
    },
    USAGE,
  ];
  const state = run(edit);
  const tool = state.entries.find((entry) => entry.kind === "tool")!;
  assert.ok(tool.kind === "tool" && tool.folded);
  assert.deepEqual(tool.change, { path: "src/x.ts", kind: "modify", oldText: "a\n", newText: "a\nb\n" });
  const open = reduce(state, { type: "toggle_fold" }).entries.at(-1)!;
  assert.ok(open.kind === "tool" && !open.folded && open.change?.newText === "a\nb\n");
  const created = run([{ ...edit[2]!, data: { ...data, before: null } } as Action]).entries.at(-1)!;
  assert.ok(created.kind === "tool" && created.change?.kind === "create");
});
