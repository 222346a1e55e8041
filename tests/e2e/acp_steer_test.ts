/**
 * Mid-turn steering through `_reasonix.io/session/steer`, against the simulator: text sent while the model
 * streams a tool call reaches the very next request as a user message after the tool result; text sent
 * while it streams its final answer makes the turn take one more request; between turns steering is
 * refused. Checked on the raw request bytes the simulator received; a `session/load` replays the steering as user messages.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { promptText, spawnAcp, textOf, UpdateLog } from "../support/acp.ts";

const STEER = "_reasonix.io/session/steer";

interface WireMessage {
  role: string;
  content: string;
}

function messagesOf(sim: DeepSeekSim, index: number): WireMessage[] {
  return JSON.parse(sim.requests[index]!.body).messages as WireMessage[];
}

Deno.test("reasonix acp: _reasonix.io/session/steer reaches the running turn's next request", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      {
        reasoning: "thinking ".repeat(30),
        chunkSize: 9,
        tokensPerSecond: 10,
        toolCalls: [{ id: "call_r", name: "read_file", arguments: '{"path":"a.txt"}' }],
      },
      { content: "First answer. ".repeat(30), chunkSize: 14, tokensPerSecond: 10 },
      { content: "Answered the second note." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  try {
    await acp.client({ name: "steer-test" })
      .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
      .connectWith(agent.stream, async (ctx) => {
        const init = await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
        });
        const vendor = init.agentCapabilities?._meta?.["reasonix.io"] as { methods: string[] };
        assert.ok(vendor.methods.includes(STEER));
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
        await assert.rejects(
          ctx.request(STEER, { sessionId, text: "too early" }),
          (error: acp.RequestError) => (error.data as { code: string }).code === "session.not_running",
        );
        const prompt = promptText(ctx, sessionId, "read a.txt");
        await log.until((u) => u.sessionUpdate === "agent_thought_chunk");
        assert.deepEqual(await ctx.request(STEER, { sessionId, text: "Also count its lines." }), {
          queued: true,
        });
        await log.until((u) => u.sessionUpdate === "agent_message_chunk");
        assert.equal(sim.requests.length, 2, "the second request streams its answer");
        await ctx.request(STEER, { sessionId, text: "And say hello." });
        assert.equal((await prompt).stopReason, "end_turn");
        assert.equal(textOf(log.of(sessionId), "user_message_chunk"), "Also count its lines.And say hello.");
        // A reload replays the steering where it went, after the turn's own prompt.
        const before = log.of(sessionId).length;
        await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers: [] });
        const replayed = log.of(sessionId).slice(before).filter((u) =>
          u.sessionUpdate === "user_message_chunk"
        );
        assert.deepEqual(replayed.map((u) => textOf([u], "user_message_chunk")), [
          "read a.txt",
          "Also count its lines.",
          "And say hello.",
        ]);
      });
    assert.equal(sim.requests.length, 3);
    const second = messagesOf(sim, 1);
    assert.deepEqual(second.slice(-2).map((m) => m.role), ["tool", "user"]);
    assert.match(second.at(-1)!.content, /^\[steering\] .*\n\nAlso count its lines\.$/s);
    const third = messagesOf(sim, 2);
    assert.deepEqual(third.slice(-2).map((m) => m.role), ["assistant", "user"]);
    assert.match(third.at(-1)!.content, /\n\nAnd say hello\.$/);
    assert.ok(!third.at(-1)!.content.includes("Also count"), "each steering text is delivered once");
    // The prompt prefix is untouched: the same system prompt and tools in every request.
    const prefix = (i: number) =>
      JSON.stringify([messagesOf(sim, i)[0], JSON.parse(sim.requests[i]!.body).tools]);
    assert.equal(prefix(1), prefix(0));
    assert.equal(prefix(2), prefix(0));
    assert.equal(await agent.close(), 0);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
