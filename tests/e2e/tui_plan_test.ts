/**
 * The plan card in the real TUI (tmux, simulator): Shift+Tab reaches plan mode, the card revises (with
 * typed feedback that reaches the model), rejects, and approves; after the approval the earlier mode
 * is back and the approved steps are the todo list.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { withTui } from "../support/tui.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";

function plan(summary: string, steps: string[]): ScriptedReply {
  const args = { summary, steps: steps.map((content) => ({ content })) };
  const call = { action: "call", capability_id: "tool:submit_plan", arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

function lastTool(sim: { requests: { json: { messages: { role: string; content: string }[] } }[] }): string {
  return sim.requests.at(-1)!.json.messages.filter((m) => m.role === "tool").at(-1)!.content;
}

Deno.test("tui: Shift+Tab to plan mode; the plan card revises with feedback, rejects, then approves", async () => {
  const script: ScriptedReply[] = [
    plan("Add notes.txt", ["Write notes.txt"]),
    plan("Add notes.txt with a title", ["Write notes.txt", "Add a title"]),
    { content: "Understood, no changes." },
    plan("Add notes.txt with a title", ["Write notes.txt", "Add a title"]),
    {
      toolCalls: [{
        name: "write_file",
        arguments: JSON.stringify({ path: "notes.txt", content: "# Notes\n" }),
      }],
    },
    { content: "Wrote it." },
  ];
  await withTui(script, async ({ pane, sim, workspace }) => {
    await pane.keys("BTab", "BTab"); // auto → yolo → plan: an approval returns to auto, not the yolo passed through
    await pane.waitFor(/ · plan · /);
    await pane.type("add notes");
    await pane.keys("Enter");
    const card = await pane.waitFor(/Plan · revision 1/);
    assert.match(card, /Add notes\.txt/);
    assert.match(card, /1\. Write notes\.txt/);
    assert.match(card, /1 Approve .* 2 Revise .* 3 Reject/);
    await pane.type("2");
    await pane.waitFor(/What should change\?/);
    await pane.type("add a title");
    await pane.keys("Enter");
    await pane.waitFor(/Plan · revision 2/);
    assert.match(lastTool(sim), /asked for changes to plan revision 1 and said: "add a title"/);
    await pane.type("3");
    await pane.waitFor(/Understood, no changes\./);
    assert.match(lastTool(sim), /^The user rejected plan revision 2/);
    await pane.type("go on");
    await pane.keys("Enter");
    await pane.waitFor(/Plan · revision 3/);
    await pane.keys("Enter");
    const done = await pane.waitFor(/Wrote it\./);
    assert.match(done, /Plan revision 3 approved · permission mode auto/);
    assert.equal(Deno.readTextFileSync(join(workspace, "notes.txt")), "# Notes\n");
    assert.match(sim.requests[4]!.json.messages.at(-1).content, /The user approved plan revision 3/);
  }, { size: [100, 40], args: ["--permission-mode", "auto"] });
});
