/**
 * MCP servers an editor names in `session/new` and `session/load`, through `reasonix acp` run fenced as
 * an editor runs it (main.ts with -A re-runs itself under the Deno fence): a stdio server whose command
 * the fence does not list (a script in the workspace) starts and the model calls its tools; the editor's
 * env values never show in what the model, the editor or stderr sees; server-everything answers over
 * Streamable HTTP and SSE; a host the fence does not let the process reach is refused, naming the fence.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { promptText, spawnAcp, textOf, UpdateLog } from "../support/acp.ts";
import { EVERYTHING, loopbackServer } from "../mcp/_servers.ts";
import { hostEnv } from "../support/host_env.ts";

const CRASH_SERVER = resolve(import.meta.dirname!, "../fixtures/mcp/crash_server.ts");
const SECRET = "editor-secret-4f9a1c77";
const ENV = hostEnv();

function capabilityCall(id: string, args: Record<string, unknown>): ScriptedReply {
  const call = { action: "call", capability_id: id, arguments: args };
  return { reasoning: "call it", toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

function toolResults(sim: DeepSeekSim, index: number): string[] {
  const messages = sim.requests[index]!.json.messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

function editor(log: UpdateLog) {
  return acp.client({ name: "mcp-test" })
    .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
    .onRequest(acp.methods.client.session.requestPermission, () => ({
      outcome: { outcome: "selected", optionId: "allow_once" },
    }));
}

/** A server command the fence's --allow-run list cannot name: a script the editor points at. */
async function serverScript(ws: string): Promise<string> {
  const file = join(ws, "bin", "editor-mcp");
  await Deno.mkdir(join(ws, "bin"));
  const deno = JSON.stringify(Deno.execPath());
  await Deno.writeTextFile(file, `#!/bin/sh\nexec ${deno} run -A --quiet ${JSON.stringify(CRASH_SERVER)}\n`);
  await Deno.chmod(file, 0o755);
  return file;
}

Deno.test("reasonix acp (fenced): an editor's stdio MCP server joins the session, and its env stays secret", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      capabilityCall("tool:mcp__ed__echo", { text: "hello from the model" }),
      capabilityCall("tool:mcp__ed__crash", {}),
      { content: "Done." },
      capabilityCall("tool:mcp__ed__echo", { text: "again" }),
      { content: "Done again." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const command = await serverScript(ws);
  const mcpServers: acp.McpServer[] = [{
    name: "ed",
    command,
    args: [],
    env: [{ name: "FIXTURE_TOKEN", value: SECRET }],
  }];
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  try {
    await editor(log).connectWith(agent.stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      assert.deepEqual(init.agentCapabilities?.mcpCapabilities, { http: true, sse: true });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers });
      const first = await promptText(ctx, sessionId, "use the editor's server");
      assert.equal(first.stopReason, "end_turn");
      assert.deepEqual(toolResults(sim, 1), ["echo: hello from the model"]);
      const crashed = toolResults(sim, 2)[1]!;
      assert.match(crashed, /mcp\.server_failed/);
      assert.match(crashed, /exited with code 3/);
      assert.ok(!crashed.includes(SECRET), crashed);
      assert.equal(textOf(log.of(sessionId), "agent_message_chunk"), "Done.");

      await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers });
      const second = await promptText(ctx, sessionId, "once more");
      assert.equal(second.stopReason, "end_turn");
      assert.equal(toolResults(sim, 4).at(-1), "echo: again");
    });
    assert.ok(!JSON.stringify(log.updates).includes(SECRET), "the editor never sees the env value");
    assert.ok(!agent.stderr().includes(SECRET), agent.stderr());
    assert.ok(!sim.requests.some((request) => request.body.includes(SECRET)), "nor does the model");
    // The prompt prefix never moves: the same tools (and system prompt) in every request, across the load.
    const prefix = (i: number) =>
      JSON.stringify([sim.requests[i]!.json.messages[0], sim.requests[i]!.json.tools]);
    for (let i = 1; i < sim.requests.length; i++) assert.equal(prefix(i), prefix(0), `request ${i}`);
    assert.equal(await agent.close(), 0);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp (fenced): an editor's Streamable HTTP and SSE servers answer; an unreachable host is refused", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "reasonix-everything-" });
  const server = await loopbackServer(`${EVERYTHING}/dist/index.js`, ["streamableHttp"], { cwd, env: ENV });
  const sseServer = await loopbackServer(`${EVERYTHING}/dist/index.js`, ["sse"], { cwd, env: ENV });
  const sim = await DeepSeekSim.start({
    script: [
      capabilityCall("tool:mcp__web__echo", { message: "over http" }),
      capabilityCall("tool:mcp__old__echo", { message: "over sse" }),
      { content: "Echoed." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  // web_fetch off: the fence lets the process reach the provider and the configured servers only.
  const fenced = await makeHome({ simUrl: sim.url, extraToml: `[tools]\nenabled = ["read_file"]\n` });
  const agent = spawnAcp({ home, cwd: ws });
  const narrow = spawnAcp({ home: fenced, cwd: ws });
  const log = new UpdateLog();
  const headers = [{ name: "Authorization", value: `Bearer ${SECRET}` }];
  const web: acp.McpServer = { type: "http", name: "web", url: server.url("/mcp"), headers };
  const old: acp.McpServer = { type: "sse", name: "old", url: sseServer.url("/sse"), headers };
  try {
    await editor(log).connectWith(agent.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: ws,
        mcpServers: [web, old],
      });
      const done = await promptText(ctx, sessionId, "echo over http");
      assert.equal(done.stopReason, "end_turn");
      assert.match(toolResults(sim, 1)[0]!, /Echo: over http/);
      assert.match(toolResults(sim, 2)[1]!, /Echo: over sse/);
    });
    const refusedLog = new UpdateLog();
    await editor(refusedLog).connectWith(narrow.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [web] });
      await refusedLog.until((u) => u.sessionUpdate === "agent_message_chunk");
      const said = textOf(refusedLog.of(sessionId), "agent_message_chunk");
      assert.match(said, /MCP server "web" from the editor cannot reach 127\.0\.0\.1:\d+: the Deno fence/);
      assert.match(said, /REASONIX_NO_FENCE=1/);
    });
    assert.ok(!agent.stderr().includes(SECRET) && !narrow.stderr().includes(SECRET));
    assert.equal(await agent.close(), 0);
  } finally {
    await agent.close();
    await narrow.close();
    await server.stop();
    await sseServer.stop();
    await sim.close();
    await removeAll(home, fenced, ws, cwd);
  }
});
