/**
 * `reasonix run --goal` through the real CLI: the goal runs turn after turn and the run exits when it
 * ends; the JSON result carries the goal's status (success when complete, a `goal.*` error otherwise),
 * and the session's goal sidecar is left for a later `/goal resume`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Responder } from "../support/deepseek_sim.ts";
import { runCli, sessionFiles } from "../support/cli.ts";
import { type SimHome, withSimHome } from "../support/sim_home.ts";
import { goalModel, type GoalMove } from "../support/goal_model.ts";

function withRun(script: Responder, body: (ctx: SimHome) => Promise<void>) {
  return withSimHome(script, body, { files: { "a.txt": "alpha\n" } });
}

Deno.test("run --goal: works until the goal completes; the json result carries the goal", async () => {
  const moves: GoalMove[] = ["write", "complete"];
  await withRun(goalModel((turn) => moves[turn - 1] ?? "idle"), async ({ sim, home, ws }) => {
    const run = await runCli(
      ["run", "--yolo", "--output-format", "json", "--goal", "Create an output file"],
      { home, cwd: ws },
    );
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    assert.equal(result.subtype, "success");
    assert.equal(result.num_turns, 2);
    assert.equal(result.result, "Turn over.");
    assert.equal(result.goal.status, "complete");
    assert.equal(result.goal.category, "write");
    assert.equal(result.goal.turns, 2);
    assert.equal(result.goal.budget, 20);
    assert.ok(result.goal.tokens > 0);
    assert.equal(Deno.readTextFileSync(join(ws, "out1.txt")), "turn 1\n");
    assert.equal(
      sim.requests.length,
      7,
      "a write turn of five requests (todo, write, check, cite, answer), a report of two",
    );
  });
});

Deno.test("run --goal: a goal without progress exits 1 with goal.no_progress; text mode shows the goal lines", async () => {
  await withRun(goalModel(() => "idle"), async ({ home, ws }) => {
    const run = await runCli(["run", "--yolo", "--output-format", "json", "--goal", "Tidy the docs"], {
      home,
      cwd: ws,
    });
    assert.equal(run.code, 1, run.stderr);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    assert.equal(result.subtype, "error_during_execution");
    assert.equal(result.error.code, "goal.no_progress");
    assert.equal(result.goal.status, "blocked");
    assert.equal(result.goal.stop_cause, "no_progress");
    assert.equal(result.goal.turns, 4);
    const [session] = await sessionFiles(home);
    const stored = JSON.parse(Deno.readTextFileSync(session!.replace(/\.jsonl$/, ".goal.json")));
    assert.equal(stored.status, "blocked");
  });
  await withRun(goalModel(() => "complete"), async ({ home, ws }) => {
    const run = await runCli(["run", "--yolo", "--goal", "Write the notes"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /Goal started \(write, 20 turns\): Write the notes/);
    assert.match(run.stderr, /Goal complete after 1 turns: Write the notes/);
  });
});

Deno.test("run --goal refuses a task beside the goal", async () => {
  await withRun(goalModel(() => "idle"), async ({ sim, home, ws }) => {
    const run = await runCli(["run", "--goal", "Do it", "and this"], { home, cwd: ws });
    assert.equal(run.code, 2, run.stderr);
    assert.match(run.stderr, /Cannot combine --goal with a task/);
    assert.equal(sim.requests.length, 0);
  });
});
