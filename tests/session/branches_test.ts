import assert from "node:assert/strict";
import { branchTree, newBranchName, rewoundBranchName } from "../../src/session/branches.ts";
import type { SessionRecord } from "../../src/session/store.ts";

const AT = "2026-12-01T08:00:00Z";
const header: SessionRecord = {
  type: "session",
  v: 1,
  id: "s",
  workspace: "/w",
  createdAt: AT,
  model: "m",
  provider: "p",
};
const user = (content: string): SessionRecord => ({ type: "message", message: { role: "user", content } });

Deno.test("branchTree() reads a file without branch records as main, one branch per rewind", () => {
  const records: SessionRecord[] = [
    header,
    user("one"),
    user("two"),
    { type: "rewind", to: 2, messages: [{ role: "user", content: "one" }], at: AT },
    user("three"),
  ];
  assert.deepEqual(branchTree(records), {
    current: "main",
    branches: [
      { name: "main", parent: null, forkAt: 0, head: 5 },
      { name: "before-rewind-1", parent: "main", forkAt: 2, head: 3 },
    ],
  });
  assert.equal(rewoundBranchName(records), "before-rewind-2");
  assert.equal(newBranchName(records), "branch-2");
});

Deno.test("branchTree() follows branch and switch records; a named rewind keeps its name", () => {
  const records: SessionRecord[] = [
    header,
    user("one"),
    { type: "branch", name: "b", at: AT },
    user("on b"),
    { type: "switch", name: "main", to: 2, messages: [{ role: "user", content: "one" }], at: AT },
    user("on main"),
    { type: "rewind", to: 5, messages: [{ role: "user", content: "one" }], at: AT, branch: "kept" },
  ];
  assert.deepEqual(branchTree(records), {
    current: "main",
    branches: [
      { name: "main", parent: null, forkAt: 0, head: 7 },
      { name: "b", parent: "main", forkAt: 2, head: 4 },
      { name: "kept", parent: "main", forkAt: 5, head: 6 },
    ],
  });
});
