import assert from "node:assert/strict";
import { type EventBatch, joinDeltas, subscribeBatched } from "../../../src/frontends/tui/event_batch.ts";
import type { EventListener, ReasonixEvent } from "../../../src/control/events.ts";
import { initialState, reduce } from "../../../src/frontends/tui/state.ts";

function source() {
  const listeners = new Set<EventListener>();
  return {
    subscribe(listener: EventListener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit: (event: ReasonixEvent) => listeners.forEach((listener) => listener(event)),
  };
}

Deno.test("subscribeBatched(): deltas of one frame become one batch, joined; another event flushes them in order", async () => {
  const events = source();
  const batches: EventBatch[] = [];
  const stop = subscribeBatched(events, (batch) => batches.push(batch), { frameMs: 5 });
  events.emit({ type: "text", text: "a" });
  events.emit({ type: "text", text: "b" });
  assert.equal(batches.length, 0);
  events.emit({ type: "turn_done", subtype: "success", result: "ab" });
  assert.deepEqual(batches.map((b) => b.events), [[{ type: "text", text: "ab" }, {
    type: "turn_done",
    subtype: "success",
    result: "ab",
  }]]);
  events.emit({ type: "text", text: "c" });
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(batches.at(-1)!.events, [{ type: "text", text: "c" }]);
  events.emit({ type: "text", text: "d" });
  stop();
  assert.deepEqual(batches.at(-1)!.events, [{ type: "text", text: "d" }]);
});

Deno.test("subscribeBatched({wipe}) wipes before a redraw's batch is dispatched, and only then", () => {
  const events = source();
  const order: string[] = [];
  const stop = subscribeBatched(events, (batch) => order.push(batch.events[0]!.type), {
    wipe: () => order.push("wipe"),
  });
  const started = {
    type: "session_started",
    sessionId: "s",
    resumed: false,
    model: "m",
    provider: "p",
  } as const;
  events.emit(started);
  events.emit({ ...started, redraw: true });
  events.emit({ type: "turn_started", turn: 1, text: "hi" });
  stop();
  assert.deepEqual(order, ["session_started", "wipe", "session_started", "turn_started"]);
});

Deno.test("a streaming answer settles its finished Markdown blocks; only the unfinished tail stays live", () => {
  const deltas = ["# Title\n\nFirst para", "graph.\n\n```ts\nconst a = 1;\n\n", "const b = 2;\n```\n\nTail"];
  const state = deltas.reduce(
    (s, text) => reduce(s, { type: "text", text }),
    reduce(initialState(), { type: "turn_started", turn: 1, text: "go" }),
  );
  const answers = state.entries.filter((entry) => entry.kind === "answer");
  assert.deepEqual(answers.map((a) => a.kind === "answer" && a.text), [
    "# Title\n\n",
    "First paragraph.\n\n",
    "```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n",
  ]);
  assert.ok(answers.every((a) => a.kind === "answer" && a.continued && !a.streaming));
  assert.deepEqual(state.live?.kind === "answer" && state.live.text, "Tail");
});

Deno.test("joinDeltas() joins runs of text and of reasoning, keeps other events and the order", () => {
  const done = { type: "turn_done", subtype: "success", result: "" } as const;
  assert.deepEqual(
    joinDeltas([
      { type: "reasoning", text: "x" },
      { type: "reasoning", text: "y" },
      { type: "text", text: "a" },
      { type: "text", text: "b" },
      done,
      { type: "text", text: "c" },
    ]),
    [{ type: "reasoning", text: "xy" }, { type: "text", text: "ab" }, done, { type: "text", text: "c" }],
  );
});
