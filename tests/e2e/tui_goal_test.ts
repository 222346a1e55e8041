/**
 * Goal mode in the real TUI (tmux, simulator): `/goal <objective>` runs turn after turn, each change
 * shows as a line in the transcript, and `/goal status` prints the objective, status and runtime line.
 */
import assert from "node:assert/strict";
import { withTui } from "../support/tui.ts";
import { goalModel } from "../support/goal_model.ts";
import type { Responder } from "../support/deepseek_sim.ts";

Deno.test("tui: /goal runs until four turns make no progress; /goal status shows the runtime line", async () => {
  await withTui(goalModel(() => "idle"), async ({ pane, sim }) => {
    await pane.type("/goal Tidy the docs folder");
    await pane.keys("Enter");
    await pane.waitFor(/Goal started \(simple, 10 turns\): Tidy the docs folder/);
    await pane.waitFor(/Goal blocked after 4 turns: no host-verifiable progress/);
    assert.equal(sim.requests.length, 4);
    await pane.type("/goal status");
    await pane.keys("Enter");
    const screen = await pane.waitFor(/runtime: turns 4\/10, tokens \d+, no-progress 4\/4, extensions 0/);
    assert.match(screen, /goal: Tidy the docs folder/);
    assert.match(
      screen,
      /status: blocked \(no host-verifiable progress in a row; \/goal resume tries again\)/,
    );
  }, { size: [120, 40], args: ["--permission-mode", "auto"] });
});

Deno.test("tui: while a goal runs, /goal status and /goal pause are answered at once; the goal pauses after the turn", async () => {
  const model = goalModel(() => "write");
  // Slow replies keep the goal running while the person types.
  const slow: Responder = (request, index) => ({
    ...model(request, index),
    fault: { kind: "slow_first_byte", delayMs: 600 },
  });
  await withTui(slow, async ({ pane }) => {
    await pane.type("/goal Add the release notes");
    await pane.keys("Enter");
    await pane.waitFor(/Goal turn 1\/20 done \(no progress 0\/4\)/);
    await pane.type("/goal status");
    await pane.keys("Enter");
    const status = await pane.waitFor(/runtime: turns [12]\/20, tokens \d+, no-progress 0\/4, extensions 0/);
    assert.match(status, /status: active/);
    await pane.type("/goal pause");
    await pane.keys("Enter");
    await pane.waitFor(/The goal pauses after the running turn\./);
    const paused = await pane.waitFor(/Goal paused after \d+ turns: paused; \/goal resume continues/);
    assert.doesNotMatch(paused, /Goal turn 4\/20/);
  }, { size: [120, 40], args: ["--permission-mode", "yolo"] });
});
