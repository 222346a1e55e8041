import assert from "node:assert/strict";
import { join } from "node:path";
import { goalFileFor, readGoalFile, writeGoalFile } from "../../src/session/goal_file.ts";
import type { GoalSnapshot } from "../../src/control/events.ts";

const GOAL: GoalSnapshot = {
  id: "g1",
  objective: "Bump the version",
  revision: 1,
  status: "paused",
  category: "simple",
  turns: 10,
  budget: 10,
  tokens: 5000,
  noProgress: 0,
  noProgressLimit: 4,
  extensions: 0,
  stopCause: "budget",
};

Deno.test("goal sidecar: written beside the session, read back, removed; a file that is not a goal is refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const session = join(dir, "sessions", "ws", "20261204-1.jsonl");
    assert.equal(goalFileFor(session), join(dir, "sessions", "ws", "20261204-1.goal.json"));
    assert.equal(await readGoalFile(session), null);
    await writeGoalFile(session, GOAL);
    assert.deepEqual(await readGoalFile(session), GOAL);
    await writeGoalFile(session, null);
    assert.equal(await readGoalFile(session), null);
    await writeGoalFile(session, null);
    for (
      const bad of [
        "{",
        "[]",
        JSON.stringify({ ...GOAL, turns: -1 }),
        JSON.stringify({ ...GOAL, status: "x" }),
      ]
    ) {
      await Deno.writeTextFile(goalFileFor(session), bad);
      await assert.rejects(readGoalFile(session), /it is not a goal-mode state file/);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
