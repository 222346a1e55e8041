import assert from "node:assert/strict";
import { initialState, reduce } from "../../../src/frontends/tui/state.ts";

const STARTED = { type: "session_started", resumed: false, model: "flash", provider: "p" } as const;

Deno.test("reduce() on a second session_started keeps the transcript, adds a notice and resets the status", () => {
  let state = reduce(initialState(), { ...STARTED, sessionId: "s1" });
  assert.deepEqual(state.entries, [], "the first session adds no notice");
  state = reduce(state, { type: "turn_started", turn: 1, text: "hello" });
  state = reduce(state, { type: "text", text: "answer" });
  assert.equal(state.status.busy, true);
  state = reduce(state, { ...STARTED, sessionId: "s2", resumed: true, model: "pro" });
  assert.deepEqual(state.entries.map((entry) => entry.kind), ["user", "answer", "notice"]);
  const notice = state.entries.at(-1)!;
  assert.equal(notice.kind === "notice" ? notice.text : "", "Resumed session s2 · pro");
  assert.equal(state.live, null);
  assert.deepEqual(state.status, { ...initialState().status, model: "pro", provider: "p" });
  state = reduce(state, { ...STARTED, sessionId: "s3" });
  const last = state.entries.at(-1)!;
  assert.equal(last.kind === "notice" ? last.text : "", "New session s3 · flash");
  assert.equal(new Set(state.entries.map((entry) => entry.id)).size, state.entries.length, "ids stay unique");
});

Deno.test("reduce() clear_transcript empties the transcript but keeps the status", () => {
  let state = reduce(initialState(), { ...STARTED, sessionId: "s1" });
  state = reduce(state, { type: "command_output", text: "hi" });
  state = reduce(state, { type: "clear_transcript" });
  assert.deepEqual(state.entries, []);
  assert.equal(state.status.model, "flash");
});

Deno.test("reduce() on a redraw replaces the transcript with the snapshot that follows", () => {
  let state = reduce(initialState(), { ...STARTED, sessionId: "s1" });
  state = reduce(state, { type: "turn_started", turn: 1, text: "hi" });
  state = reduce(state, { type: "text", text: "on b" });
  state = reduce(state, { ...STARTED, sessionId: "s1", redraw: true });
  assert.deepEqual(state.entries, []);
  assert.equal(state.live, null);
  state = reduce(state, { type: "turn_started", turn: 1, text: "hi" });
  state = reduce(state, { type: "text", text: "hello" });
  state = reduce(state, { type: "turn_done", subtype: "success", result: "hello" });
  assert.deepEqual(state.entries.map((entry) => entry.kind), ["user", "answer"]);
  assert.equal(state.status.busy, false);
});
