/**
 * `reasonix acp` driven by the ACP SDK's client side with server-everything configured: the model's
 * long-running MCP call reaches the editor as `in_progress` `tool_call_update`s carrying the progress text
 * and `_meta.reasonix.progress`, then the final `completed` update replaces that content with the result.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { promptText, spawnAcp, UpdateLog } from "../support/acp.ts";
import { everythingPlugin } from "../mcp/_servers.ts";

const TOOL = "mcp__everything__trigger-long-running-operation";

const TOML = everythingPlugin();

Deno.test("reasonix acp: an MCP call's progress arrives as in_progress tool_call_updates before its result", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ id: "call_long", name: TOOL, arguments: `{"duration":1.2,"steps":4}` }] },
      { content: "Finished." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url, extraToml: TOML });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  const client = acp.client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
    .onRequest(
      acp.methods.client.session.requestPermission,
      () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }),
    );
  try {
    await client.connectWith(agent.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
        clientInfo: { name: "test-editor", version: "0" },
      });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const response = await promptText(ctx, sessionId, "run the long operation");
      assert.equal(response.stopReason, "end_turn", agent.stderr());
      const updates = log.of(sessionId).filter((u) =>
        (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") &&
        u.toolCallId === "call_long"
      );
      const progress = updates.filter((u) =>
        u.sessionUpdate === "tool_call_update" && u.status === "in_progress"
      );
      assert.ok(progress.length >= 1, JSON.stringify(updates));
      assert.deepEqual(progress[0], {
        sessionUpdate: "tool_call_update",
        toolCallId: "call_long",
        status: "in_progress",
        content: [{ type: "content", content: { type: "text", text: "1/4" } }],
        _meta: { reasonix: { progress: { progress: 1, total: 4 } } },
      });
      assert.equal(updates[0]!.sessionUpdate, "tool_call");
      const last = updates.at(-1)!;
      assert.ok(last.sessionUpdate === "tool_call_update" && last.status === "completed");
      assert.match(JSON.stringify(last.content), /Long running operation completed/);
    });
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
