/**
 * `reasonix acp` under the Deno fence: a tool whose own path check is broken still cannot write outside
 * the workspace, and a session for a directory the fence does not cover is refused with a clear error.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { promptNewSession, spawnAcp, UpdateLog } from "../support/acp.ts";

const FENCE_ENTRY = resolve(import.meta.dirname!, "fixtures/fence_entry.ts");

function editor(log: UpdateLog) {
  return acp.client({ name: "fence-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
    .onRequest(acp.methods.client.session.requestPermission, () => ({
      outcome: { outcome: "selected", optionId: "allow_once" },
    }));
}

Deno.test("reasonix acp runs fenced: a buggy write outside the workspace fails; outside sessions are refused", async () => {
  const outside = await Deno.makeTempDir({ prefix: "reasonix-outside-" });
  const target = join(outside, "escaped.txt");
  const sim = await DeepSeekSim.start({
    script: [
      {
        toolCalls: [{ name: "buggy_write", arguments: JSON.stringify({ path: target, content: "escaped" }) }],
      },
      { content: "Tried." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws, entry: FENCE_ENTRY });
  const log = new UpdateLog();
  try {
    await editor(log).connectWith(agent.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      await assert.rejects(
        ctx.request(acp.methods.agent.session.new, { cwd: outside, mcpServers: [] }),
        (error: acp.RequestError) => {
          assert.match(error.message, /outside the fenced workspace/);
          assert.equal((error.data as { code: string }).code, "session.outside_fence");
          return true;
        },
      );
      const sessionId = await promptNewSession(ctx, ws, "go");
      const done = log.of(sessionId).find((u) => u.sessionUpdate === "tool_call_update");
      assert.ok(done && done.sessionUpdate === "tool_call_update");
      assert.equal(done.status, "failed");
    });
    await assert.rejects(Deno.stat(target), Deno.errors.NotFound);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws, outside);
  }
});
