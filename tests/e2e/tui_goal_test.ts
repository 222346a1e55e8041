/**
 * Goal mode in the real TUI (tmux, simulator): `/goal <objective>` runs turn after turn, each change
 * shows as a line in the transcript, and `/goal status` prints the objective, status and runtime line.
 */
import assert from "node:assert/strict";
import { withTui } from "../support/tui.ts";
import { goalModel } from "../support/goal_model.ts";

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
