/**
 * Subagents through the real CLI (the Deno fence, bubblewrap where present): `reasonix run` starts a
 * writer child that writes inside its claim, prints its start and end, and `reasonix session list`
 * shows the child's session under its parent; the run's JSON result and the listing's COST include
 * what the child spent.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { listWorkspaceSessions } from "../../src/session/listing.ts";
import { loadSession } from "../../src/session/store.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { roundCost } from "../../src/frontends/run/result.ts";

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

Deno.test("run: --output-format json and session list count a child's requests in the parent's cost", async () => {
  const script: ScriptedReply[] = [
    use({ prompt: "read the note", description: "reader" }),
    { toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path: "notes/n.txt" }) }] },
    { content: "it says n" },
    { content: "all done" },
  ];
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "notes/n.txt": "n\n" });
  try {
    const args = ["run", "--permission-mode", "auto", "--output-format", "json", "delegate it"];
    const run = await runCli(args, { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    const sessions = await listWorkspaceSessions(resolvePaths({ REASONIX_HOME: home }).sessionsDir, ws);
    const parent = sessions.find((s) => s.id === result.session_id)!;
    const child = sessions.find((s) => s.parent === parent.id)!;
    const own = async (file: string) => {
      const usage = (await loadSession(file)).records.filter((r) => r.type === "usage");
      return {
        cost: usage.reduce((sum, r) => sum + (r.type === "usage" ? r.cost ?? 0 : 0), 0),
        prompt: usage.reduce((sum, r) => sum + (r.type === "usage" ? r.usage.promptTokens : 0), 0),
      };
    };
    const [parentOwn, childOwn] = await Promise.all([own(parent.file), own(child.file)]);
    assert.ok(childOwn.cost > 0);
    assert.equal(result.num_model_calls, 2);
    assert.equal(result.num_subagent_model_calls, 2);
    assert.equal(result.usage.input_tokens, parentOwn.prompt + childOwn.prompt);
    assert.equal(result.total_cost, roundCost(parentOwn.cost + childOwn.cost));
    assert.equal(result.total_cost_usd, result.total_cost);
    const list = await runCli(["session", "list"], { home, cwd: ws });
    assert.equal(list.code, 0, list.stderr);
    const line = list.stdout.split("\n").find((l) =>
      l.includes(parent.id.slice(0, 8)) && !l.includes("[child of")
    );
    assert.ok(line, list.stdout);
    assert.ok(line.includes((parentOwn.cost + childOwn.cost).toFixed(4)), line);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
