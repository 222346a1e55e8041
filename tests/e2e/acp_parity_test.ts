/**
 * Parity of faces: one scripted session through `reasonix run` and through `reasonix acp` sends the
 * provider byte-identical requests, so the ACP face adds no behaviour of its own.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { promptText, spawnAcp } from "../support/acp.ts";

const TASK = "read a.txt, plan, and tell me what it says";

function script(): ScriptedReply[] {
  return [
    {
      reasoning: "Read it first.",
      toolCalls: [{ id: "call_read", name: "read_file", arguments: '{"path":"a.txt"}' }],
    },
    {
      reasoning: "Now a plan.",
      toolCalls: [{
        id: "call_todo",
        name: "todo_write",
        arguments: JSON.stringify({ todos: [{ content: "Answer", status: "in_progress" }] }),
      }],
    },
    { reasoning: "Done.", content: "It says alpha." },
  ];
}

async function bodiesFromRun(ws: string): Promise<string[]> {
  const sim = await DeepSeekSim.start({ script: script() });
  const home = await makeHome({ simUrl: sim.url });
  try {
    const run = await runCli(["run", TASK], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    return sim.requests.map((request) => request.body);
  } finally {
    await sim.close();
    await removeAll(home);
  }
}

async function bodiesFromAcp(ws: string): Promise<string[]> {
  const sim = await DeepSeekSim.start({ script: script() });
  const home = await makeHome({ simUrl: sim.url });
  const agent = spawnAcp({ home, cwd: ws });
  try {
    await acp.client({ name: "parity" }).connectWith(agent.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const response = await promptText(ctx, sessionId, TASK);
      assert.equal(response.stopReason, "end_turn");
    });
    return sim.requests.map((request) => request.body);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home);
  }
}

Deno.test("run and acp send byte-identical provider requests for the same scripted session", async () => {
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    const viaRun = await bodiesFromRun(ws);
    const viaAcp = await bodiesFromAcp(ws);
    assert.equal(viaRun.length, 3);
    assert.deepEqual(viaAcp, viaRun);
  } finally {
    await removeAll(ws);
  }
});
