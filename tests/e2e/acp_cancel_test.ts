/**
 * `session/cancel` while a `bash` command runs, wherever it runs: in Reasonix's sandbox (bubblewrap), run
 * directly (`[sandbox] bash = false`, no client terminal), and in the editor's terminal (`bash = false`
 * with `clientCapabilities.terminal`). Each time the prompt ends with `stopReason: "cancelled"`, the
 * command's process is gone (found by a unique `sleep` argument), the call's card ends, and the next
 * prompt answers. SIGTERM to the agent mid-command records the turn as interrupted before it exits.
 * The real agent, the SDK's client side, real processes.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, sessionFiles } from "../support/cli.ts";
import { promptText, spawnAcp, textOf, UpdateLog } from "../support/acp.ts";
import { TestTerminals } from "../support/acp_terminal.ts";

type Where = "sandbox" | "direct" | "client terminal";
const linux = Deno.build.os === "linux";

/** Pids whose command line holds `marker` (pgrep -f), this test's own pgrep excluded. */
async function pgrep(marker: string): Promise<number[]> {
  const { stdout } = await new Deno.Command("pgrep", { args: ["-f", marker], stdout: "piped" }).output();
  return new TextDecoder().decode(stdout).split("\n").filter(Boolean).map(Number);
}

async function cancelRunningBash(where: Where): Promise<void> {
  const seconds = `30.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
  const marker = `sleep ${seconds}`;
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ id: "call_s", name: "bash", arguments: JSON.stringify({ command: marker }) }] },
      { content: "Still here." },
    ],
  });
  const home = await makeHome({
    simUrl: sim.url,
    extraToml: where === "sandbox" ? "" : "[sandbox]\nbash = false\n",
  });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws, args: ["acp", "--yolo"] });
  const log = new UpdateLog();
  const terminals = new TestTerminals();
  const client = acp.client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params));
  try {
    await terminals.register(client).connectWith(agent.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: false, writeTextFile: false },
          terminal: where === "client terminal",
        },
        clientInfo: { name: "test-editor", version: "0" },
      });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const prompt = promptText(ctx, sessionId, "wait");
      assert.ok(
        await waitFor(() => pgrep(marker), 20_000),
        `the command runs (${where})`,
      );
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await prompt).stopReason, "cancelled");
      assert.ok(
        await waitFor(async () => (await pgrep(marker)).length === 0 ? [0] : [], 10_000),
        `no process of the command is left: ${await pgrep(marker)}`,
      );
      const card = log.of(sessionId).filter((u) => u.sessionUpdate === "tool_call_update").at(-1);
      assert.ok(
        card?.sessionUpdate === "tool_call_update" && card.status === "failed",
        `the call's card ends: ${JSON.stringify(card)}`,
      );
      const next = await promptText(ctx, sessionId, "again");
      assert.equal(next.stopReason, "end_turn");
      assert.ok(textOf(log.of(sessionId), "agent_message_chunk").endsWith("Still here."));
    });
    if (where === "client terminal") {
      assert.equal(terminals.created.length, 1, "the command ran in the client's terminal");
      assert.ok(terminals.calls.includes("kill"), `terminal/kill was sent: ${terminals.calls}`);
    } else assert.deepEqual(terminals.calls, []);
    const tool = (sim.requests[1]!.json.messages as { role: string; content: string }[])
      .find((message) => message.role === "tool");
    assert.ok(tool, "the next request carries the interrupted call's result");
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
}

/** Polls `probe` until it finds something (true) or `timeoutMs` passes (false). */
async function waitFor(probe: () => Promise<number[]>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await probe()).length > 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

for (const where of ["sandbox", "direct", "client terminal"] as const) {
  Deno.test(`reasonix acp: session/cancel kills a running bash command (${where}) and the session goes on`, {
    ignore: !linux,
  }, () => cancelRunningBash(where));
}

Deno.test("reasonix acp: SIGTERM mid-command records the turn as interrupted before it exits 143", {
  ignore: !linux,
}, async () => {
  const marker = `sleep 30.${crypto.getRandomValues(new Uint32Array(1))[0]}`;
  const sim = await DeepSeekSim.start({
    script: [{ toolCalls: [{ id: "call_s", name: "bash", arguments: JSON.stringify({ command: marker }) }] }],
  });
  const home = await makeHome({ simUrl: sim.url, extraToml: "[sandbox]\nbash = false\n" });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws, args: ["acp", "--yolo"] });
  const log = new UpdateLog();
  try {
    await acp.client({ name: "test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
      .connectWith(agent.stream, async (ctx) => {
        await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: {},
          clientInfo: { name: "test-editor", version: "0" },
        });
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
        const prompt = promptText(ctx, sessionId, "wait").catch(() => null);
        assert.ok(await waitFor(() => pgrep(marker), 20_000), "the command runs");
        Deno.kill(agent.child.pid, "SIGTERM");
        await prompt;
      }).catch(() => {/* the agent went away */});
    assert.equal((await agent.child.status).code, 143, agent.stderr());
    assert.deepEqual(await pgrep(marker), [], "no process of the command is left");
    const [file] = await sessionFiles(home);
    const records = Deno.readTextFileSync(file!).trim().split("\n").map((line) => JSON.parse(line));
    const end = records.find((r) => r.type === "entry" && r.entry.kind === "turn_end")?.entry;
    assert.equal(end?.result, "Interrupted by SIGTERM", "the turn's end is recorded");
    const result = records.find((r) => r.type === "message" && r.message.role === "tool")?.message;
    assert.equal(result?.tool_call_id, "call_s", "the interrupted call has its result");
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
