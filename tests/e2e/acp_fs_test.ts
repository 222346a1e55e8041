/**
 * `reasonix acp` with a client that offers `fs/read_text_file` and `fs/write_text_file`: the model reads
 * the editor's unsaved buffer, a write reaches the editor only after the permission request, a path
 * outside the workspace is refused without asking the editor, a failed editor read is the tool's error
 * (not a disk read), plan mode refuses a write before the editor hears of it, and a client without the
 * capability leaves every tool on the disk. The real agent process, the SDK's client side, the simulator.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, sessionFiles } from "../support/cli.ts";
import { type AcpProcess, promptNewSession, promptText, spawnAcp, UpdateLog } from "../support/acp.ts";

/** An editor holding unsaved buffers in memory; every fs request and permission request is logged. */
class Editor {
  readonly log = new UpdateLog();
  readonly calls: string[] = [];
  readonly buffers = new Map<string, string>();
  readonly failing = new Set<string>();

  app(answer: string) {
    return acp.client({ name: "test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => this.log.add(params))
      .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
        this.calls.push(`permission ${params.toolCall.toolCallId}`);
        return { outcome: { outcome: "selected", optionId: answer } };
      })
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        this.calls.push(`read ${params.path}`);
        if (this.failing.has(params.path)) {
          throw acp.RequestError.internalError(undefined, "buffer is locked");
        }
        const text = this.buffers.get(params.path);
        if (text === undefined) throw acp.RequestError.resourceNotFound(params.path);
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        this.calls.push(`write ${params.path}`);
        this.buffers.set(params.path, params.content);
        return {};
      });
  }
}

async function initialize(ctx: acp.ClientContext, fs: boolean): Promise<void> {
  await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: fs, writeTextFile: fs }, terminal: false },
    clientInfo: { name: "test-editor", version: "0" },
  });
}

function call(id: string, name: string, args: Record<string, unknown>) {
  return { toolCalls: [{ id, name, arguments: JSON.stringify(args) }] };
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The tool results the model was sent in request `index`. */
function toolResults(sim: DeepSeekSim, index: number): string[] {
  const messages = sim.requests[index]!.json.messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === "tool").map((message) => message.content);
}

Deno.test("reasonix acp reads and writes through the client's fs methods, with every host check", async () => {
  const outside = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix-outside-" }));
  await Deno.writeTextFile(join(outside, "secret.txt"), "outside\n");
  const sim = await DeepSeekSim.start({
    script: [
      call("call_r", "read_file", { path: "notes.txt" }),
      call("call_f", "read_file", { path: "locked.txt" }),
      call("call_o", "read_file", { path: join(outside, "secret.txt") }),
      call("call_w", "write_file", { path: "notes.txt", content: "rewritten\n" }),
      call("call_e", "edit_file", { path: "notes.txt", old_string: "rewritten", new_string: "edited" }),
      { content: "Done." },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "notes.txt": "on disk\n", "locked.txt": "locked on disk\n" });
  const editor = new Editor();
  editor.buffers.set(join(ws, "notes.txt"), "unsaved buffer\n");
  editor.buffers.set(join(outside, "secret.txt"), "outside buffer\n");
  editor.failing.add(join(ws, "locked.txt"));
  const agent = spawnAcp({ home, cwd: ws });
  try {
    await editor.app("allow_once").connectWith(agent.stream, async (ctx) => {
      await initialize(ctx, true);
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      const response = await promptText(ctx, sessionId, "tidy the notes");
      assert.equal(response.stopReason, "end_turn");
      const asked = editor.log.of(sessionId);
      const approval = asked.find((u) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "call_w");
      assert.ok(approval && approval.sessionUpdate === "tool_call_update");
      assert.deepEqual(approval.content, [{
        type: "diff",
        path: join(ws, "notes.txt"),
        oldText: "unsaved buffer\n",
        newText: "rewritten\n",
      }]);
    });
    assert.equal(toolResults(sim, 1).at(-1), "1\tunsaved buffer");
    assert.match(
      toolResults(sim, 2).at(-1)!,
      /Cannot read "locked\.txt" through the editor: .*buffer is locked/,
    );
    assert.match(toolResults(sim, 3).at(-1)!, /outside the workspace/);
    const notes = join(ws, "notes.txt");
    assert.deepEqual(editor.calls, [
      `read ${notes}`,
      `read ${join(ws, "locked.txt")}`,
      // The planned write reads the buffer it replaces, and reads it again right before writing.
      `read ${notes}`,
      "permission call_w",
      `read ${notes}`,
      `write ${notes}`,
      `read ${notes}`,
      "permission call_e",
      `read ${notes}`,
      `write ${notes}`,
    ]);
    assert.equal(editor.buffers.get(notes), "edited\n");
    assert.equal(await Deno.readTextFile(notes), "on disk\n", "the editor saves, not the agent");
    assert.equal(await agent.close(), 0);
    // The turn's checkpoint saw the bytes the editor held before and after, so a rewind restores them.
    const [session] = await sessionFiles(home);
    const dir = session!.replace(/\.jsonl$/, ".checkpoints");
    const names = [...Deno.readDirSync(dir)].map((entry) => entry.name).filter((name) =>
      /^\d+\.json$/.test(name)
    );
    const checkpoint = JSON.parse(await Deno.readTextFile(join(dir, names[0]!)));
    assert.deepEqual(checkpoint.files, [{
      path: notes,
      before: await sha256("unsaved buffer\n"),
      after: await sha256("edited\n"),
    }]);
    assert.equal(await Deno.readTextFile(join(dir, "blobs", checkpoint.files[0].before)), "unsaved buffer\n");
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws, outside);
  }
});

/** The agent over a workspace whose notes.txt the editor holds as an unsaved buffer; all removed after. */
async function withNotes(
  script: ScriptedReply[],
  body: (setup: { sim: DeepSeekSim; ws: string; editor: Editor; agent: AcpProcess }) => Promise<void>,
): Promise<void> {
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "notes.txt": "on disk\n" });
  const editor = new Editor();
  editor.buffers.set(join(ws, "notes.txt"), "unsaved buffer\n");
  const agent = spawnAcp({ home, cwd: ws });
  try {
    await body({ sim, ws, editor, agent });
  } finally {
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("reasonix acp: plan mode refuses a write before the client's fs hears of it", async () => {
  const script = [call("call_w", "write_file", { path: "notes.txt", content: "x\n" }), {
    content: "Refused.",
  }];
  await withNotes(script, async ({ sim, ws, editor, agent }) => {
    await editor.app("allow_once").connectWith(agent.stream, async (ctx) => {
      await initialize(ctx, true);
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: ws, mcpServers: [] });
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
      await promptText(ctx, sessionId, "go");
    });
    assert.match(toolResults(sim, 1).at(-1)!, /plan mode/i);
    assert.ok(!editor.calls.some((entry) => entry.startsWith("write")), editor.calls.join("\n"));
    assert.equal(editor.buffers.get(join(ws, "notes.txt")), "unsaved buffer\n");
    assert.equal(await Deno.readTextFile(join(ws, "notes.txt")), "on disk\n");
  });
});

Deno.test("reasonix acp: a client without the fs capability leaves the tools on the disk", async () => {
  const script = [
    call("call_r", "read_file", { path: "notes.txt" }),
    call("call_w", "write_file", { path: "notes.txt", content: "rewritten\n" }),
    { content: "Done." },
  ];
  await withNotes(script, async ({ sim, ws, editor, agent }) => {
    await editor.app("allow_once").connectWith(agent.stream, async (ctx) => {
      await initialize(ctx, false);
      await promptNewSession(ctx, ws, "go");
    });
    assert.equal(toolResults(sim, 1).at(-1), "1\ton disk");
    assert.deepEqual(editor.calls, ["permission call_w"]);
    assert.equal(await Deno.readTextFile(join(ws, "notes.txt")), "rewritten\n");
  });
});
