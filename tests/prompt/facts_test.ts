import assert from "node:assert/strict";
import { factChanges, todoReminder, type TurnFacts, withTurnNotes } from "../../src/prompt/facts.ts";

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

Deno.test("todoReminder() lists unfinished items and is silent when all are done", () => {
  assert.equal(todoReminder([{ content: "a", status: "completed" }]), null);
  assert.equal(todoReminder([]), null);
  assert.equal(
    todoReminder([
      { content: "a", status: "completed" },
      { content: "b", status: "in_progress" },
      { content: "c", status: "pending" },
    ]),
    "Your todo list has 2 unfinished items: [>] b; [ ] c.",
  );
  const many = Array.from({ length: 7 }, (_, i) => ({ content: `t${i}`, status: "pending" as const }));
  assert.match(todoReminder(many)!, /7 unfinished items: .*\[ \] t4; and 2 more\.$/);
});
