/**
 * `reasonix acp`'s stdout at the byte level, read as raw lines: nothing but JSON-RPC messages even when
 * a tool prints to stdout, and `available_commands_update` only after the `session/new` response.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { spawnAcp } from "../support/acp.ts";

const STRAY_ENTRY = resolve(import.meta.dirname!, "fixtures/acp_stray_entry.ts");

/** Reads stdout line by line; every line must be one JSON-RPC message. */
class RawPeer {
  readonly lines: string[] = [];
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #waiters: {
    test: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  readonly done: Promise<void>;

  constructor(child: Deno.ChildProcess) {
    this.#writer = child.stdin.getWriter();
    let rest = "";
    this.done = child.stdout.pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write: (chunk) => {
          rest += chunk;
          let end;
          while ((end = rest.indexOf("\n")) >= 0) {
            this.#line(rest.slice(0, end));
            rest = rest.slice(end + 1);
          }
        },
      }),
    );
  }

  #line(line: string): void {
    this.lines.push(line);
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line);
    } catch {
      return; // Asserted at the end: every line must be a message.
    }
    this.#waiters = this.#waiters.filter((waiter) => {
      if (!waiter.test(message)) return true;
      waiter.resolve(message);
      return false;
    });
  }

  async send(message: unknown): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(JSON.stringify(message) + "\n"));
  }

  /** The first message, received or to come, that passes `test`. */
  until(test: (m: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    const seen = this.lines.flatMap((line) => {
      try {
        return [JSON.parse(line)];
      } catch {
        return [];
      }
    }).find(test);
    if (seen) return Promise.resolve(seen);
    const { promise, resolve } = Promise.withResolvers<Record<string, unknown>>();
    this.#waiters.push({ test, resolve });
    return promise;
  }

  /** Initializes (request 1) and opens a session in `cwd` (request 2); returns its id. */
  async openSession(cwd: string): Promise<string> {
    await this.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } });
    await this.until((m) => m.id === 1);
    await this.send({ jsonrpc: "2.0", id: 2, method: "session/new", params: { cwd, mcpServers: [] } });
    const created = await this.until((m) => m.id === 2);
    return (created.result as { sessionId: string }).sessionId;
  }

  async close(): Promise<void> {
    await this.#writer.close().catch(() => {});
  }
}

Deno.test("reasonix acp keeps stdout for protocol messages and announces commands after session/new", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ toolCalls: [{ id: "call_p", name: "stray_print", arguments: "{}" }] }, { content: "ok" }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws, entry: STRAY_ENTRY });
  const peer = new RawPeer(agent.child);
  try {
    const sessionId = await peer.openSession(ws);
    const isCommands = (m: Record<string, unknown>) =>
      m.method === "session/update" &&
      (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate ===
        "available_commands_update";
    await peer.until(isCommands);
    const order = peer.lines.map((line) => JSON.parse(line));
    assert.ok(order.findIndex((m) => m.id === 2) < order.findIndex(isCommands));
    await peer.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "print" }] },
    });
    const answered = await peer.until((m) => m.id === 3);
    assert.deepEqual(answered.result, { stopReason: "end_turn" });
    await peer.close();
    assert.equal(await agent.close(), 0);
    await peer.done;
    for (const line of peer.lines) assert.doesNotThrow(() => JSON.parse(line), line);
    for (const line of peer.lines) assert.equal(JSON.parse(line).jsonrpc, "2.0", line);
    for (const stray of ["console.log", "console.info", "writeSync", "write", "process.stdout"]) {
      assert.ok(agent.stderr().includes(`stray ${stray}\n`), stray);
    }
  } finally {
    await peer.close();
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix acp: SIGTERM from the editor ends a running turn and exits 143", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "word ".repeat(400), chunkSize: 5, tokensPerSecond: 20 }],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const agent = spawnAcp({ home, cwd: ws });
  const peer = new RawPeer(agent.child);
  try {
    const sessionId = await peer.openSession(ws);
    await peer.send({
      jsonrpc: "2.0",
      id: 3,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: "talk" }] },
    });
    await peer.until((m) =>
      m.method === "session/update" && JSON.stringify(m).includes("agent_message_chunk")
    );
    agent.child.kill("SIGTERM");
    assert.equal((await agent.child.status).code, 143);
    await peer.done;
  } finally {
    await peer.close();
    await agent.close();
    await sim.close();
    await removeAll(home, ws);
  }
});
