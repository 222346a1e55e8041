import assert from "node:assert/strict";
import { factChanges, type TurnFacts, withTurnNotes } from "../../src/prompt/facts.ts";

const base: TurnFacts = {
  workspace: "/w",
  os: "linux",
  arch: "x86_64",
  shell: "bash",
  date: "2026-12-01",
  gitBranch: "main",
  extraWritable: [],
  model: "deepseek-flash",
  permissionMode: "ask",
};

Deno.test("factChanges() is empty when nothing changed", () => {
  assert.deepEqual(factChanges(base, structuredClone(base)), []);
});

Deno.test("factChanges() names each change with old and new values", () => {
  const notes = factChanges(base, {
    ...base,
    date: "2026-12-02",
    gitBranch: "fix",
    model: "deepseek-v4-pro",
    permissionMode: "auto",
    extraWritable: ["/x"],
  });
  assert.deepEqual(notes, [
    "The date is now 2026-12-02 (the session started 2026-12-01).",
    "The git branch is now fix (was main).",
    "This turn is answered by deepseek-v4-pro (was deepseek-flash).",
    "The permission mode is now auto (was ask).",
    "Extra writable directories are now: /x.",
  ]);
});

Deno.test("withTurnNotes() appends a tail block and leaves plain text alone", () => {
  assert.equal(withTurnNotes("hi", []), "hi");
  assert.equal(withTurnNotes("hi", ["a", "b"]), "hi\n\n<turn-context>\na\nb\n</turn-context>");
});
