/**
 * `reasonix acp` end to end, driven by the ACP SDK's client side as an editor drives it, against the
 * DeepSeek simulator: a prompt with a tool call and a permission request the client answers, a plan from
 * the todo tool, cancellation, and `session/load` of a session `reasonix run` made.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { spawnAcp, textOf, UpdateLog } from "../support/acp.ts";

type PermissionAnswer = (request: acp.RequestPermissionRequest) => acp.RequestPermissionResponse;

function editor(log: UpdateLog, answer: PermissionAnswer, asked: acp.RequestPermissionRequest[] = []) {
  return acp.client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => log.add(params))
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      asked.push(params);
      return answer(params);
    });
}

const allowOnce: PermissionAnswer = () => ({ outcome: { outcome: "selected", optionId: "allow_once" } });

async function initialize(ctx: acp.ClientContext): Promise<acp.InitializeResponse> {
  return await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "test-editor", version: "0" },
  });
}

Deno.test("reasonix acp runs a prompt with a tool call the client approves, and a plan", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      {
        reasoning: "Plan first.",
        toolCalls: [{
          id: "call_todo",
          name: "todo_write",
          arguments: JSON.stringify({ todos: [{ content: "Write hello.txt", status: "in_progress" }] }),
        }],
      },
      {
        toolCalls: [{
          id: "call_w",
          name: "write_file",
          arguments: '{"path":"hello.txt","content":"hi\\n"}',
        }],
      },
      { content: "Wrote hello.txt." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  const asked: acp.RequestPermissionRequest[] = [];
  try {
    await editor(log, allowOnce, asked).connectWith(agent.stream, async (ctx) => {
      const init = await initialize(ctx);
      assert.equal(init.agentCapabilities?.loadSession, true);
      assert.equal(init.agentCapabilities?.promptCapabilities?.embeddedContext, true);
      assert.deepEqual(init.agentCapabilities?.sessionCapabilities?.list, {});
      assert.ok(init.agentCapabilities?._meta?.["reasonix.io"]);
      const created = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      assert.deepEqual(created.modes?.availableModes.map((mode) => mode.id), ["ask", "auto", "yolo", "plan"]);
      assert.deepEqual(created.configOptions?.map((option) => option.id), ["mode", "model", "effort"]);
      const response = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: created.sessionId,
        prompt: [{ type: "text", text: "write hello.txt" }],
      });
      assert.equal(response.stopReason, "end_turn");
      const updates = log.of(created.sessionId);
      assert.equal(textOf(updates, "agent_thought_chunk"), "Plan first.");
      assert.equal(textOf(updates, "agent_message_chunk"), "Wrote hello.txt.");
      const plan = updates.find((u) => u.sessionUpdate === "plan");
      assert.deepEqual(plan, {
        sessionUpdate: "plan",
        entries: [{ content: "Write hello.txt", status: "in_progress", priority: "medium" }],
      });
      const call = updates.find((u) => u.sessionUpdate === "tool_call" && u.toolCallId === "call_w");
      assert.ok(call && call.sessionUpdate === "tool_call");
      assert.equal(call.kind, "edit");
      assert.equal(call.title, "write_file: hello.txt");
      assert.deepEqual(call.locations, [{ path: join(ws, "hello.txt") }]);
      const done = updates.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_w");
      assert.ok(done && done.sessionUpdate === "tool_call_update");
      assert.equal(done.status, "completed");
      assert.deepEqual(done.content, [{
        type: "diff",
        path: join(ws, "hello.txt"),
        oldText: null,
        newText: "hi\n",
      }]);
      assert.equal(asked.length, 1);
      assert.equal(asked[0]!.toolCall.toolCallId, "call_w");
      assert.deepEqual(asked[0]!.toolCall.content, [
        { type: "diff", path: join(ws, "hello.txt"), oldText: null, newText: "hi\n" },
      ]);
      assert.deepEqual(asked[0]!.options.map((option) => option.kind).sort(), [
        "allow_always",
        "allow_always",
        "allow_once",
        "reject_once",
      ]);
      const usage = updates.filter((u) => u.sessionUpdate === "usage_update");
      assert.equal(usage.length, 3, "one per request");
      const last = usage.at(-1)!;
      assert.ok(last.sessionUpdate === "usage_update" && last.size > 0 && last.used > 0);
      const commands = updates.find((u) => u.sessionUpdate === "available_commands_update");
      assert.ok(commands && commands.sessionUpdate === "available_commands_update");
      assert.ok(commands.availableCommands.some((command) => command.name === "compact"));
      assert.ok(!commands.availableCommands.some((command) => command.name === "quit"));
    });
    assert.equal(await Deno.readTextFile(join(ws, "hello.txt")), "hi\n");
    assert.equal(await agent.close(), 0);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp: a rejected permission leaves the file unwritten", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ id: "call_w", name: "write_file", arguments: '{"path":"no.txt","content":"x"}' }] },
      { content: "Understood." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  try {
    await editor(log, () => ({ outcome: { outcome: "selected", optionId: "deny" } })).connectWith(
      agent.stream,
      async (ctx) => {
        await initialize(ctx);
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
        const response = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "write no.txt" }],
        });
        assert.equal(response.stopReason, "end_turn");
        const done = log.of(sessionId).find((u) => u.sessionUpdate === "tool_call_update");
        assert.ok(done && done.sessionUpdate === "tool_call_update");
        assert.equal(done.status, "failed");
      },
    );
    await assert.rejects(Deno.stat(join(ws, "no.txt")), Deno.errors.NotFound);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp: session/cancel ends the prompt with stopReason cancelled", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "word ".repeat(400), chunkSize: 5, tokensPerSecond: 20 }, { content: "Still here." }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  try {
    await editor(log, allowOnce).connectWith(agent.stream, async (ctx) => {
      await initialize(ctx);
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const prompt = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "talk" }],
      });
      await log.until((u) => u.sessionUpdate === "agent_message_chunk");
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      assert.equal((await prompt).stopReason, "cancelled");
      // The session goes on after a cancel.
      const next = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "again" }],
      });
      assert.equal(next.stopReason, "end_turn");
      assert.ok(textOf(log.of(sessionId), "agent_message_chunk").endsWith("Still here."));
    });
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp: session/load replays a session made by reasonix run", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      {
        reasoning: "Look first.",
        toolCalls: [{ id: "call_r", name: "read_file", arguments: '{"path":"a.txt"}' }],
      },
      { content: "It says alpha." },
      { content: "Loaded and continued." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  const run = await runCli(["run", "--output-format", "json", "what is in a.txt"], { home, cwd: ws });
  assert.equal(run.code, 0, run.stderr);
  const sessionId = JSON.parse(run.stdout).session_id as string;
  const agent = spawnAcp({ home, cwd: ws });
  const log = new UpdateLog();
  try {
    await editor(log, allowOnce).connectWith(agent.stream, async (ctx) => {
      await initialize(ctx);
      const listed = await ctx.request(acp.methods.agent.session.list, { cwd: ws });
      assert.deepEqual(listed.sessions.map((s) => s.sessionId), [sessionId]);
      assert.equal(listed.sessions[0]!.title, "what is in a.txt");
      // Only the exact id loads: a prefix would name another session by accident.
      await assert.rejects(
        ctx.request(acp.methods.agent.session.load, {
          sessionId: sessionId.slice(0, 8),
          cwd: ws,
          mcpServers: [],
        }),
        /not found/i,
      );
      await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: ws, mcpServers: [] });
      const replayed = log.of(sessionId);
      assert.deepEqual(replayed.slice(0, 5).map((u) => u.sessionUpdate), [
        "user_message_chunk",
        "agent_thought_chunk",
        "tool_call",
        "tool_call_update",
        "agent_message_chunk",
      ]);
      assert.equal(textOf(replayed, "user_message_chunk"), "what is in a.txt");
      assert.equal(textOf(replayed, "agent_message_chunk"), "It says alpha.");
      const call = replayed[2]!;
      assert.ok(call.sessionUpdate === "tool_call");
      assert.equal(call.kind, "read");
      assert.deepEqual(call.locations, [{ path: join(ws, "a.txt") }]);
      const response = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "go on" }],
      });
      assert.equal(response.stopReason, "end_turn");
    });
    // The continued turn replayed the stored conversation: the first request's bytes are its prefix.
    const first = sim.requests[0]!.json.messages;
    const last = sim.requests.at(-1)!.json.messages;
    assert.deepEqual(last.slice(0, first.length), first);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp: modes, config options and the _reasonix.io status extension", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ id: "call_w", name: "write_file", arguments: '{"path":"y.txt","content":"y"}' }] },
      { content: "Done." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const asked: acp.RequestPermissionRequest[] = [];
  try {
    await editor(new UpdateLog(), allowOnce, asked).connectWith(agent.stream, async (ctx) => {
      const init = await initialize(ctx);
      const vendor = init.agentCapabilities?._meta?.["reasonix.io"] as { methods: string[] };
      assert.deepEqual(vendor.methods, ["_reasonix.io/session/status", "_reasonix.io/session/steer"]);
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "yolo" });
      const set = await ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "effort",
        value: "max",
      });
      const current = Object.fromEntries(
        set.configOptions.map((option) => [option.id, option.currentValue]),
      );
      assert.deepEqual(current, { mode: "yolo", model: "deepseek-flash/deepseek-flash", effort: "max" });
      await assert.rejects(
        ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "reckless" }),
        /Unknown mode "reckless"/,
      );
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "y" }],
      });
      const status = await ctx.request<Record<string, unknown>>("_reasonix.io/session/status", { sessionId });
      assert.equal(status.sessionId, sessionId);
      assert.equal(status.permissionMode, "yolo");
      assert.equal(status.effort, "max");
      assert.equal((status.totals as { toolCalls: number }).toolCalls, 1);
    });
    // yolo: the write ran without asking; the effort reached the provider.
    assert.equal(asked.length, 0);
    assert.equal(await Deno.readTextFile(join(ws, "y.txt")), "y");
    assert.equal(sim.requests[0]!.json.reasoning_effort, "max");
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp: session/delete removes a stored session; an open one is closed first", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "One." }, { content: "Two." }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const run = await runCli(["run", "--output-format", "json", "first"], { home, cwd: ws });
  assert.equal(run.code, 0, run.stderr);
  const stored = JSON.parse(run.stdout).session_id as string;
  const agent = spawnAcp({ home, cwd: ws });
  try {
    await editor(new UpdateLog(), allowOnce).connectWith(agent.stream, async (ctx) => {
      await initialize(ctx);
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "second" }],
      });
      const ids = async () =>
        (await ctx.request(acp.methods.agent.session.list, { cwd: ws })).sessions.map((s) => s.sessionId);
      assert.deepEqual((await ids()).sort(), [stored, sessionId].sort());
      await ctx.request(acp.methods.agent.session.delete, { sessionId: stored });
      await ctx.request(acp.methods.agent.session.delete, { sessionId });
      assert.deepEqual(await ids(), []);
      await assert.rejects(
        ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "x" }] }),
        /not found/i,
      );
    });
    assert.deepEqual(await sessionFiles(home), []);
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
