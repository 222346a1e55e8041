import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withTui } from "../support/tui.ts";

const DONE = (screen: string) => !screen.includes("working…");
const STEPS = Array.from({ length: 6 }, (_, i) => `step ${i + 1} of the plan`).join("\n");
const FOLDED = "✻ Thinking… (6 lines · ctrl+o to expand)";
const EDIT = JSON.stringify({ path: "README.md", old_string: "fixture", new_string: "fixture two\nmore" });

Deno.test("tui fold: settled reasoning is one 'Thinking…' line; Ctrl+O prints it whole, Ctrl+O again folded", async () => {
  await withTui([{ reasoning: STEPS, content: "Answer here." }], async ({ pane }) => {
    await pane.type("think");
    await pane.keys("Enter");
    const folded = await pane.waitFor((text) => DONE(text) && /Answer here\./.test(text));
    const lines = folded.split("\n");
    assert.ok(lines.includes(FOLDED), folded);
    assert.ok(!folded.includes("step 1"), "folded reasoning shows none of its text");
    assert.ok(lines.indexOf(FOLDED) < lines.findIndex((line) => line.includes("Answer here.")));
    await pane.keys("C-o");
    const open = await pane.waitFor(/step 6 of the plan/);
    const below = open.slice(open.indexOf("Answer here."));
    assert.match(
      below,
      /✻ Thinking\n {2}step 1 of the plan\n[\s\S]* {2}step 6 of the plan/,
      "whole, below the answer",
    );
    await pane.keys("C-o");
    const again = await pane.waitFor((text) => text.lastIndexOf(FOLDED) > text.indexOf("step 6 of the plan"));
    assert.equal(again.split("\n").filter((line) => line === FOLDED).length, 2, again);
  });
});

Deno.test("tui fold: [ui] show_reasoning = false folds reasoning while it streams", async () => {
  const long = Array.from({ length: 40 }, (_, i) => `thought ${i + 1}`).join("\n");
  await withTui(
    [{ reasoning: long, content: "Done.", tokensPerSecond: 40, chunkSize: 4 }],
    async ({ pane }) => {
      await pane.type("think");
      await pane.keys("Enter");
      const streaming = await pane.waitFor((text) =>
        /✻ Thinking… \(\d+ lines · ctrl\+o to expand\)/.test(text) && !DONE(text)
      );
      assert.ok(!/thought \d/.test(streaming), streaming);
      const done = await pane.waitFor((text) => DONE(text) && /Done\./.test(text));
      assert.ok(done.includes("✻ Thinking… (40 lines · ctrl+o to expand)"), done);
      assert.ok(!/thought \d/.test(done), done);
    },
    { files: { "README.md": "fixture\n", "reasonix.toml": "[ui]\nshow_reasoning = false\n" } },
  );
});

Deno.test("tui fold: an approved edit keeps its diff in the transcript, folded; Ctrl+O prints the whole diff", async () => {
  await withTui(
    [{ toolCalls: [{ name: "edit_file", arguments: EDIT }] }, { content: "Edited." }],
    async ({ pane }) => {
      await pane.type("edit the readme");
      await pane.keys("Enter");
      await pane.waitFor(/Allow edit_file\?[\s\S]*1 \+ fixture two/);
      await pane.keys("Enter");
      const folded = await pane.waitFor((text) => DONE(text) && /Edited\./.test(text));
      assert.match(
        folded,
        /✓ edit_file README\.md · [\d.]+m?s\n {2}⎿ diff README\.md \+2 −1 \(ctrl\+o to expand\)\n/,
      );
      assert.ok(!folded.includes("+ fixture two"), "the card is gone and the diff is folded");
      await pane.keys("C-o");
      const open = await pane.waitFor(/1 \+ fixture two/);
      const below = open.slice(open.indexOf("Edited."));
      assert.match(
        below,
        /README\.md \(modified\)\n {2}@@ -1,1 \+1,2 @@\n {2}1 - fixture\n {2}1 \+ fixture two\n {2}2 \+ more/,
      );
    },
  );
});

Deno.test("tui fold: a resumed session shows an earlier edit's diff folded, from the session log", async () => {
  await withTui(
    [{ toolCalls: [{ name: "edit_file", arguments: EDIT }] }, { content: "Edited before." }],
    async ({ pane }) => {
      const screen = await pane.waitFor(/Edited before\./);
      assert.match(screen, /⎿ diff README\.md \+2 −1 \(ctrl\+o to expand\)/);
      await pane.keys("C-o");
      await pane.waitFor(/1 \+ fixture two/);
    },
    {
      args: ["-c"],
      before: async (home, workspace) => {
        const run = await runCli(["run", "--yolo", "edit the readme"], { home, cwd: workspace });
        assert.equal(run.code, 0, run.stderr);
      },
    },
  );
});
