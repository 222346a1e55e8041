/**
 * `reasonix acp` with a client that offers `terminal`: a command that would run unsandboxed anyway
 * (`[sandbox] bash = false`) runs in the editor's terminal, embedded in its tool call, with the
 * session's scrubbed environment rather than the editor's; a command the session sandboxes (bubblewrap,
 * even in yolo mode) never moves to the editor. The real agent, the SDK's client side, real processes.
 */
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { promptNewSession, spawnAcp, UpdateLog } from "../support/acp.ts";
import { TestTerminals } from "../support/acp_terminal.ts";

const COMMAND = 'echo "in $PWD"; echo "token=${GITHUB_TOKEN:-none}"; echo "tmp=${TMPDIR:-none}"; exit 3';

function editor(log: UpdateLog, terminals: TestTerminals, asked: string[]) {
  return terminals.register(
    acp.client({ name: "test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        asked.push(params.toolCall.toolCallId);
        return { outcome: { outcome: "selected", optionId: "allow_once" } };
      }),
  );
}

async function initialize(ctx: acp.ClientContext): Promise<void> {
  await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: true },
    clientInfo: { name: "test-editor", version: "0" },
  });
}

function bashScript(command: string) {
  return [
    { toolCalls: [{ id: "call_b", name: "bash", arguments: JSON.stringify({ command }) }] },
    { content: "Ran it." },
  ];
}

function lastToolResult(sim: DeepSeekSim): string {
  const messages = sim.requests[1]!.json.messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "tool").at(-1)!.content;
}

Deno.test("reasonix acp runs an unsandboxed command in the client's terminal, embedded in the call", async () => {
  const sim = await DeepSeekSim.start({ script: bashScript(COMMAND) });
  const home = await makeHome({ simUrl: sim.url, extraToml: "[sandbox]\nbash = false\n" });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  const terminals = new TestTerminals({ GITHUB_TOKEN: "ghp_editorsecret0123456789abcdefghijklmnop" });
  const asked: string[] = [];
  try {
    await editor(log, terminals, asked).connectWith(agent.stream, async (ctx) => {
      await initialize(ctx);
      const sessionId = await promptNewSession(ctx, ws, "run");
      const updates = log.of(sessionId).filter((u) => u.sessionUpdate === "tool_call_update");
      const terminal = { type: "terminal", terminalId: "term-1" };
      assert.deepEqual(updates[0], {
        sessionUpdate: "tool_call_update",
        toolCallId: "call_b",
        status: "in_progress",
        content: [terminal],
      });
      const done = updates.at(-1)!;
      assert.ok(
        done.sessionUpdate === "tool_call_update" && done.status === "completed",
        JSON.stringify(done),
      );
      assert.deepEqual(done.content?.[0], terminal, "the card keeps the terminal when the call ends");
    });
    assert.deepEqual(asked, ["call_b"], "the permission request comes first");
    assert.equal(terminals.created.length, 1);
    assert.equal(terminals.created[0]!.command, "bash");
    assert.equal(terminals.created[0]!.cwd, ws);
    assert.equal(terminals.created[0]!.args?.at(-1), COMMAND);
    assert.deepEqual(terminals.calls, ["create", "wait_for_exit", "output", "release"]);
    const result = lastToolResult(sim);
    assert.match(result, new RegExp(`^in ${ws}$`, "m"));
    assert.match(result, /^token=none$/m, "the editor's credential is not in the command's environment");
    assert.match(result, /^tmp=\/.+$/m);
    assert.match(result, /\[exit code 3\]$/);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp: a sandboxed command never moves to the client's terminal, even in yolo", async () => {
  const sim = await DeepSeekSim.start({ script: bashScript("echo sandboxed; touch /usr/reasonix-probe") });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws, args: ["acp", "--yolo"] });
  const log = new UpdateLog();
  const terminals = new TestTerminals();
  const asked: string[] = [];
  try {
    await editor(log, terminals, asked).connectWith(agent.stream, async (ctx) => {
      await initialize(ctx);
      await promptNewSession(ctx, ws, "run");
    });
    assert.deepEqual(terminals.calls, []);
    const result = lastToolResult(sim);
    assert.match(result, /^sandboxed$/m);
    assert.match(result, /Read-only file system/, "bubblewrap ran it");
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
