import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "../support/cli.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import type { TmuxPane } from "../support/tmux.ts";
import { withTui } from "../support/tui.ts";

function edit(from: string, to: string): ScriptedReply {
  return {
    toolCalls: [{
      name: "edit_file",
      arguments: JSON.stringify({ path: "a.txt", old_string: from, new_string: to }),
    }],
  };
}

const TWO_EDITS: ScriptedReply[] = [edit("alpha", "one"), { content: "Done 1." }, edit("one", "two"), {
  content: "Done 2.",
}];

async function enter(pane: TmuxPane, text: string, shows: RegExp): Promise<string> {
  await pane.type(text);
  await pane.keys("Enter");
  return await pane.waitFor(shows);
}

async function escapeTwice(pane: TmuxPane): Promise<string> {
  await pane.keys("Escape");
  await new Promise((done) => setTimeout(done, 150));
  await pane.keys("Escape");
  return await pane.waitFor(/Rewind to before a turn/);
}

async function twoTurns(pane: TmuxPane): Promise<void> {
  await enter(pane, "first edit", /Done 1\./);
  await enter(pane, "second edit", /Done 2\./);
}

Deno.test("tui rewind: Esc Esc, pick turn 1, restore code: the file on disk is back to its pre-turn content", async () => {
  await withTui([...TWO_EDITS], async ({ pane, workspace }) => {
    await twoTurns(pane);
    assert.equal(await Deno.readTextFile(join(workspace, "a.txt")), "two\n");
    const picker = await escapeTwice(pane);
    assert.match(picker, /bash side effects are not/);
    assert.match(
      picker,
      /1 #2 {2}\d\d:\d\d {2}second edit {2}a\.txt[\s\S]*2 #1 {2}\d\d:\d\d {2}first edit {2}a\.txt/,
    );
    await pane.keys("Down");
    await pane.keys("Enter");
    const scopes = await pane.waitFor(/Rewind to before turn 1: first edit/);
    assert.match(
      scopes,
      /1 Restore code and conversation[\s\S]*2 Restore conversation only[\s\S]*3 Restore code only[\s\S]*4 Cancel/,
    );
    await pane.keys("3");
    await pane.waitFor(/Rewound to before turn 1: restored a\.txt/);
    assert.equal(await Deno.readTextFile(join(workspace, "a.txt")), "alpha\n");
    await escapeTwice(pane);
    await pane.waitFor(/1 ↶ Undo the last restore/);
    await pane.keys("Escape");
    await pane.waitFor((screen) => !screen.includes("Rewind to before a turn"));
  }, { args: ["--yolo"], files: { "a.txt": "alpha\n" } });
});

Deno.test("tui rewind: a conversation restore puts the prompt back in the input and the next request is the pre-turn history", async () => {
  await withTui([...TWO_EDITS, { content: "Again." }], async ({ pane, sim, workspace }) => {
    await twoTurns(pane);
    await Deno.writeTextFile(join(workspace, "a.txt"), "hand edit\n");
    await escapeTwice(pane);
    await pane.keys("1");
    await pane.waitFor(/Rewind to before turn 2: second edit/);
    await pane.keys("1");
    const asked = await pane.waitFor(/changed outside Reasonix since the checkpoint/);
    assert.match(asked, /a\.txt[\s\S]*1 Overwrite them and restore[\s\S]*2 Cancel/);
    await pane.keys("1");
    await pane.waitFor(/The conversation is back before: second edit/);
    const redrawn = await pane.waitFor(/› second edit/);
    assert.match(redrawn, /Done 1\./);
    assert.doesNotMatch(redrawn, /Done 2\./, "the rewound-away answer is gone from the transcript");
    assert.equal(await Deno.readTextFile(join(workspace, "a.txt")), "one\n");
    const turnTwoFirst = sim.requests[2]!.body;
    await pane.keys("Enter");
    await pane.waitFor(/Again\./);
    assert.equal(sim.requests.length, 5);
    assert.equal(sim.requests[4]!.body, turnTwoFirst, "the request carries the history from before turn 2");
  }, { args: ["--yolo"], files: { "a.txt": "alpha\n" } });
});

Deno.test("tui resume: reasonix -r opens a picker of the workspace's sessions and resumes the older one", async () => {
  await withTui(
    [{ content: "Apple noted." }, { content: "Pear noted." }, { content: "It was apple." }],
    async ({ pane, sim }) => {
      const picker = await pane.waitFor(/remember pear[\s\S]*remember apple/);
      assert.match(picker, /1 remember pear +just now · 1 turn · ¥\d/);
      assert.match(picker, /2 remember apple +just now · 1 turn/);
      await pane.keys("Down");
      await pane.keys("Enter");
      await pane.waitFor(/Resumed "remember apple" \(1 turn\)/);
      await enter(pane, "which fruit?", /It was apple\./);
      const body = sim.requests[2]!.body;
      assert.ok(body.includes("remember apple") && !body.includes("remember pear"), body);
    },
    {
      args: ["-r"],
      ready: /Resume a session of this workspace/,
      before: async (home, workspace) => {
        for (const prompt of ["remember apple", "remember pear"]) {
          const run = await runCli(["run", prompt], { home, cwd: workspace });
          assert.equal(run.code, 0, run.stderr);
          await new Promise((done) => setTimeout(done, 20));
        }
      },
    },
  );
});
