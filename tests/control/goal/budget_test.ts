import assert from "node:assert/strict";
import { classifyGoal, GOAL_BUDGETS } from "../../../src/control/goal/budget.ts";
import { madeProgress, ProgressWatch } from "../../../src/control/goal/progress.ts";
import { commandVerifies } from "../../../src/control/delivery/verifier.ts";
import type { ReasonixEvent } from "../../../src/control/events.ts";
import { continuationText, firstTurnText } from "../../../src/control/goal/notes.ts";
import { asksForChange } from "../../../src/control/delivery/task_kind.ts";
import { halted, loadedGoal, newGoal, resumed, statusText } from "../../../src/control/goal/record.ts";

Deno.test("classifyGoal() sorts goal texts into write, simple and research, the same way every time", () => {
  const cases: [string, string][] = [
    ["Implement OAuth login for the web UI", "write"],
    ["Add a --json flag to the export command and test it", "write"],
    ["Refactor the session store into smaller modules", "write"],
    ["Fix the typo in README", "simple"],
    ["Bump the version", "simple"],
    ["Rename parseArgs to parseArguments", "simple"],
    ["Investigate why the build is slow and report the causes", "research"],
    ["Research how other agents cache prompts", "research"],
    ["Compare sqlite and postgres for the job queue", "research"],
    ["调研一下缓存命中率下降的原因", "research"],
    ["实现导出功能", "write"],
    ["hello there", "simple"],
  ];
  for (const [text, category] of cases) {
    assert.equal(classifyGoal(text), category, text);
    assert.equal(classifyGoal(text), classifyGoal(text));
  }
  assert.deepEqual(GOAL_BUDGETS, { write: 20, simple: 10, research: 40 });
});

/** A bash call and its result, as the Controller emits them. */
function bashRun(
  callId: string,
  args: Record<string, unknown>,
  exitCode: number,
  timedOut = false,
): ReasonixEvent[] {
  const data = { kind: "bash" as const, exitCode, durationMs: 5, timedOut, signal: null };
  return [
    { type: "tool_call", callId, name: "bash", arguments: JSON.stringify(args), readOnly: false },
    { type: "tool_result", callId, name: "bash", ok: true, output: "", durationMs: 5, readOnly: false, data },
  ];
}

Deno.test("ProgressWatch counts only passing commands that check the work; madeProgress() reads only host facts", async () => {
  const watch = new ProgressWatch(
    new Set(),
    (command) => commandVerifies(command, { root: "/ws", verifyCommands: [] }),
  );
  const runs = [
    bashRun("c1", { command: "echo tested" }, 0),
    bashRun("c2", { command: "cat test.txt && git status" }, 0),
    bashRun("c3", { command: "deno task test" }, 0),
    bashRun("c4", { command: "CI=1 pytest -q" }, 1),
    bashRun("c5", { command: "cd app && go test ./..." }, 0),
    bashRun("c6", { command: "cargo test" }, 0, true),
    bashRun("c7", { command: "npm test", run_in_background: true }, 0),
    bashRun("c8", { command: "./scripts/check.sh" }, 0),
  ];
  for (const event of runs.flat()) watch.listener(event);
  assert.equal((await watch.facts()).verified, 3, "deno task test, go test and the project check script");
  const none = {
    filesChanged: 0,
    todosCompleted: 0,
    verified: 0,
    newReads: 0,
    needsUser: false,
    tokens: 900,
  };
  assert.equal(madeProgress(none, false), false);
  assert.equal(madeProgress({ ...none, newReads: 2 }, false), false, "reads are progress only for research");
  assert.equal(madeProgress({ ...none, newReads: 2 }, true), true);
  assert.equal(madeProgress({ ...none, verified: 1 }, false), true);
  assert.equal(madeProgress({ ...none, todosCompleted: 1 }, false), true);
  assert.equal(madeProgress({ ...none, filesChanged: 1 }, false), true);
});

Deno.test("goal records: a budget stop loads blocked, resume adds one budget of the category; status has the runtime line", () => {
  const goal = { ...newGoal("Bump the version", "g1"), turns: 10, tokens: 214000 };
  const stopped = halted(goal, "budget");
  assert.equal(stopped.status, "paused");
  const loaded = loadedGoal(stopped);
  assert.equal(loaded.status, "blocked");
  assert.equal(loaded.stopCause, "budget");
  const again = resumed(loaded);
  assert.equal(again.status, "active");
  assert.equal(again.budget, 20);
  assert.equal(again.extensions, 1);
  assert.equal(again.stopCause, undefined);
  assert.equal(loadedGoal({ ...again }).stopCause, "interrupted", "an active goal left behind loads paused");
  assert.equal(resumed(halted(again, "paused")).budget, 20, "a pause adds no budget");
  assert.equal(
    statusText({ ...again, turns: 12 }).split("\n").at(-1),
    "runtime: turns 12/20, tokens 214000, no-progress 0/4, extensions 1",
  );
  assert.ok(!statusText(newGoal("evil \x1b]0;title\x07 text", "g2")).includes("\x1b"));
});

Deno.test("goal notes ask for no change themselves: verified delivery's done-claim gate reads only the objective", () => {
  const goal = { ...newGoal("Investigate the slow build", "g1"), turns: 3, noProgress: 2 };
  const note = firstTurnText(goal).split("\n").slice(1).join("\n");
  assert.match(note, /\[goal mode\]/);
  assert.equal(asksForChange(note), false);
  assert.equal(asksForChange(continuationText(goal)), false);
  assert.match(continuationText(goal), /turn 4 of 40\. No host-verifiable progress for 2 turn\(s\)/);
});
