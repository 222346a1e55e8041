import assert from "node:assert/strict";
import { initialState, reduce } from "../../../src/frontends/tui/state.ts";
import { subagentLine } from "../../../src/frontends/tui/subagent_line.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";

const base = { type: "subagent" as const, sessionId: "20261204-1", parentId: "p", depth: 1, writer: false };

Deno.test("subagentLine() shows start and end on one line, model text stripped of controls; tool calls add none", () => {
  setLanguage("en");
  const started = subagentLine({ ...base, phase: "started", description: "look\u001b[31m at\nsrc" });
  assert.equal(started, "Subagent 20261204-1 started: look at src");
  assert.equal(subagentLine({ ...base, phase: "tool", description: "", tool: "grep" }), null);
  const done = subagentLine({ ...base, phase: "done", description: "", ok: false, preview: "x".repeat(400) });
  assert.match(done!, /^Subagent 20261204-1 failed: x{159}…$/);
});

Deno.test("reduce() puts a subagent's end in the transcript as a notice, a failure as a warning", () => {
  setLanguage("en");
  const state = reduce(initialState(), {
    ...base,
    phase: "done",
    description: "",
    ok: false,
    preview: "boom",
  });
  const last = state.entries.at(-1) as { kind: string; level: string; text: string };
  assert.deepEqual([last.kind, last.level, last.text], [
    "notice",
    "warning",
    "Subagent 20261204-1 failed: boom",
  ]);
});
