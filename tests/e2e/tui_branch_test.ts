import assert from "node:assert/strict";
import type { TmuxPane } from "../support/tmux.ts";
import { withTui } from "../support/tui.ts";

async function enter(pane: TmuxPane, text: string, shows: RegExp): Promise<string> {
  await pane.waitFor((screen) => !screen.includes("working…"));
  await pane.type(text);
  await pane.keys("Enter");
  return await pane.waitFor(shows);
}

Deno.test("tui branches: /switch redraws the transcript with the switched-to line, and the next request carries it", async () => {
  const script = [
    { content: "Main answer one." },
    { content: "Main answer two." },
    { content: "Answer on b." },
    { content: "Back on main." },
  ];
  await withTui(script, async ({ pane, sim }) => {
    await enter(pane, "first question", /Main answer one\./);
    await enter(pane, "second question", /Main answer two\./);
    await enter(pane, "/branch b", /Now on branch b/);
    await enter(pane, "question on b", /Answer on b\./);
    const screen = await enter(pane, "/switch main", /Switched to branch main \(2 turns\)/);
    const redrawn = screen.includes("Answer on b.")
      ? await pane.waitFor((text) => !text.includes("Answer on b."))
      : screen;
    assert.match(redrawn, /Main answer one\./);
    assert.match(redrawn, /Main answer two\./);
    assert.doesNotMatch(redrawn, /question on b/);
    assert.match(redrawn, /1 turn on b not shown/);
    await enter(pane, "third question", /Back on main\./);
    const body = sim.requests[3]!.body;
    assert.ok(body.includes("Main answer two."), "main's history is replayed");
    assert.ok(!body.includes("question on b") && !body.includes("Answer on b."), "b's turn is not");
  });
});
