/**
 * Plan mode over ACP, driven by the SDK's client side against the simulator: the `plan` session mode
 * refuses the write, the plan reaches the editor as `session/request_permission` (approve, revise,
 * reject), and an approval restores the earlier mode (a `current_mode_update`) and the todo plan.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { promptText, spawnAcp, UpdateLog } from "../support/acp.ts";

const WRITE: ScriptedReply = {
  toolCalls: [{ name: "write_file", arguments: '{"path":"hello.txt","content":"hi\\n"}' }],
};

function submit(summary: string): ScriptedReply {
  const args = { summary, steps: [{ content: "Write hello.txt" }] };
  const call = { action: "call", capability_id: "tool:submit_plan", arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

Deno.test("reasonix acp: plan mode refuses the write; the editor revises, then approves the plan", async () => {
  const sim = await DeepSeekSim.start({
    script: [WRITE, submit("First"), { content: "Tell me what to change." }, submit("Second"), WRITE, {
      content: "Wrote it.",
    }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  const asked: acp.RequestPermissionRequest[] = [];
  const answers = ["revise", "approve", "allow_once"];
  try {
    await acp.client({ name: "test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        asked.push(params);
        return { outcome: { outcome: "selected", optionId: answers.shift()! } };
      })
      .connectWith(agent.stream, async (ctx) => {
        await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
          clientInfo: { name: "test-editor", version: "0" },
        });
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
        await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
        await promptText(ctx, sessionId, "hi");
        assert.ok(!existsSync(join(ws, "hello.txt")));
        await promptText(ctx, sessionId, "just write it");
        const updates = log.of(sessionId);
        assert.ok(
          updates.some((u) => u.sessionUpdate === "current_mode_update" && u.currentModeId === "ask"),
        );
        assert.ok(
          updates.some((u) => u.sessionUpdate === "plan" && u.entries[0]?.content === "Write hello.txt"),
        );
      });
    const refused = sim.requests[1]!.json.messages.filter((m: { role: string }) => m.role === "tool")[0];
    assert.match(refused.content, /^Error \[permission\.plan_mode\]/);
    assert.equal(asked[0]!.toolCall.title, "Plan · revision 1");
    assert.deepEqual(asked[0]!.options.map((o) => o.optionId), ["approve", "revise", "reject"]);
    const content = asked[0]!.toolCall.content?.[0];
    assert.ok(content?.type === "content" && content.content.type === "text");
    assert.match(content.content.text, /First\n1\. Write hello\.txt/);
    assert.equal(asked[1]!.toolCall.title, "Plan · revision 2");
    assert.equal(asked[2]!.toolCall.title, "write_file: hello.txt", "after approval the ask mode asks again");
    assert.equal(Deno.readTextFileSync(join(ws, "hello.txt")), "hi\n");
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
