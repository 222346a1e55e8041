/**
 * Subagents through the real CLI (the Deno fence, bubblewrap where present): `reasonix run` starts a
 * writer child that writes inside its claim, prints its start and end, and `reasonix session list`
 * shows the child's session under its parent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

function use(args: Record<string, unknown>): ScriptedReply {
  const call = { action: "call", capability_id: "tool:task", arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

Deno.test("run: a task child writes inside its write_paths under the fence; session list shows it as a child", async () => {
  const script: ScriptedReply[] = [
    use({ prompt: "write the note", description: "note", write_paths: ["notes"] }),
    {
      toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "notes/n.txt", content: "n\n" }) }],
    },
    { content: "wrote notes/n.txt" },
    { content: "all done" },
  ];
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "notes/.keep": "" });
  try {
    const run = await runCli(["run", "--permission-mode", "auto", "delegate it"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /all done/);
    assert.match(run.stderr + run.stdout, /subagent [\w-]+ started: note/);
    assert.equal(Deno.readTextFileSync(join(ws, "notes/n.txt")), "n\n");
    const list = await runCli(["session", "list"], { home, cwd: ws });
    assert.equal(list.code, 0, list.stderr);
    const child = list.stdout.split("\n").find((line) => line.includes("[child of "));
    assert.ok(child, list.stdout);
    assert.match(child, /write the note/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
