/**
 * Remote servers: the Streamable HTTP fixture (static headers, the session id echoed and ended with a DELETE,
 * a server dying mid-call) and a legacy SSE server announcing its endpoint on another origin.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { McpServerDecl } from "../../src/config/types.ts";
import { type CallToolResult, McpConnection } from "../../src/mcp/client.ts";
import type { McpServerEntry } from "../../src/mcp/config.ts";
import type { McpServerSpec } from "../../src/mcp/expand.ts";
import { McpManager } from "../../src/mcp/manager.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import { connectOptions, stdio } from "./_servers.ts";

const REPO = join(import.meta.dirname!, "../..");
const FIXTURES = join(REPO, "tests/fixtures/mcp");

function text(result: CallToolResult): string {
  return (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");
}

async function rejection(promise: Promise<unknown>): Promise<ReasonixError> {
  const error = await promise.then(() => assert.fail("expected a rejection"), (error) => error);
  assert.ok(error instanceof ReasonixError, String(error));
  return error;
}

/** A fixture server on 127.0.0.1 whose stdout lines the test reads one by one; the first is its port. */
async function fixture(file: string, args: string[]) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(FIXTURES, file), ...args],
    cwd: REPO,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const read = async (): Promise<string> => {
    while (!buffered.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) return "";
      buffered += value;
    }
    const end = buffered.indexOf("\n");
    const got = buffered.slice(0, end);
    buffered = buffered.slice(end + 1);
    return got;
  };
  let reading = Promise.resolve("");
  /** The next line, or "(nothing within 30 s)"; a line that arrives late is the next call's. */
  const line = async (): Promise<string> => {
    reading = reading.then(read);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<string>((resolve) =>
      timer = setTimeout(resolve, 30_000, "(nothing within 30 s)")
    );
    const got = await Promise.race([reading, late]);
    clearTimeout(timer);
    return got;
  };
  const port = Number(await line());
  const stop = async () => {
    try {
      child.kill();
    } catch {
      // it exited already
    }
    await reader.cancel();
    await child.status;
  };
  return { port, line, stop, status: child.status, kill: (signal: Deno.Signal) => child.kill(signal) };
}

function remote(name: string, type: "http" | "sse", url: string, headers = {}): McpServerSpec {
  return { ...stdio(name, "", []), type, url, headers };
}

type Fixture = Awaited<ReturnType<typeof fixture>>;

/** The Streamable HTTP fixture started with a new key and `flags`, and the spec that reaches it as `name`. */
async function httpServer(
  name: string,
  flags: string[] = [],
): Promise<{ key: string; server: Fixture; spec: McpServerSpec }> {
  const key = crypto.randomUUID();
  const server = await fixture("http_server.ts", [key, ...flags]);
  const url = `http://127.0.0.1:${server.port}/mcp`;
  return { key, server, spec: remote(name, "http", url, { "X-Fixture-Key": key }) };
}

Deno.test("McpConnection over Streamable HTTP sends the static headers, echoes the session id and DELETEs it on close", async () => {
  const { server, spec } = await httpServer("remote");
  try {
    const connection = await McpConnection.connect(spec, connectOptions(REPO));
    const session = await server.line();
    assert.match(session, /^session [0-9a-f-]{36}$/);
    try {
      // The stateful fixture refuses a request without the session id it assigned.
      assert.equal(text(await connection.callTool("echo", { text: "over http" })), "http echo: over http");
      assert.deepEqual((await connection.listTools()).map((tool) => tool.name).sort(), [
        "die",
        "echo",
        "hang",
      ]);
    } finally {
      await connection.close();
    }
    assert.equal(await server.line(), `DELETE ${session.slice("session ".length)}`);
    const refused = await rejection(
      McpConnection.connect({ ...spec, name: "nokey", headers: {} }, connectOptions(REPO)),
    );
    assert.match(refused.message, /^MCP server "nokey" failed initialize: .*missing key/);
  } finally {
    await server.stop();
  }
});

function entry(spec: McpServerSpec): McpServerEntry {
  const decl: McpServerDecl = {
    ...spec,
    toolTimeoutSeconds: {},
    autoStart: true,
    source: "global",
    file: join(REPO, "config.toml"),
    at: { entry: { line: 1, column: 1 } },
  };
  return { decl, spec, trust: "user", startupTimeoutMs: 60_000, callTimeoutMs: 60_000, toolTimeoutMs: {} };
}

Deno.test("McpManager: a Streamable HTTP server dying mid-call fails the call at once; the next use reconnects", async () => {
  const { key, server: first, spec } = await httpServer("web");
  const manager = new McpManager([entry(spec)], { workspace: REPO, baseEnv: {} });
  let second: Fixture | undefined;
  try {
    assert.equal(text(await manager.callTool("web", "echo", { text: "before" })), "http echo: before");
    const started = performance.now();
    const error = await rejection(manager.callTool("web", "die", {}));
    assert.ok(performance.now() - started < 10_000, "not the 60 s call timeout");
    assert.equal(error.code, "mcp.server_failed", error.message);
    // Its response stream breaks, or ends and the SDK's retry of its event stream finds nothing listening.
    assert.match(
      error.message,
      /^MCP server "web" (lost its connection|cannot be reached) \(.+\) during tools\/call "die"$/,
    );
    assert.equal((await first.status).code, 3);
    assert.deepEqual(manager.status(), [{ name: "web", state: { kind: "idle" } }]);

    second = await fixture("http_server.ts", [key, "--port", String(first.port)]);
    assert.equal(text(await manager.callTool("web", "echo", { text: "after" })), "http echo: after");
    assert.match(await second.line(), /^session /, "a new session");
  } finally {
    await manager.closeAll();
    await first.stop();
    await second?.stop();
  }
});

Deno.test("McpConnection over Streamable HTTP: a server killed while streaming a call's answer fails it at once", async () => {
  // No GET stream: only the call's own response stream can tell.
  const { server, spec } = await httpServer("killed", ["--stream-status", "405"]);
  try {
    const connection = await McpConnection.connect(spec, connectOptions(REPO, { callTimeoutMs: 60_000 }));
    try {
      let killedAt = 0;
      const error = await rejection(connection.callTool("hang", {}, {
        onProgress: () => {
          killedAt = performance.now();
          server.kill("SIGKILL");
        },
      }));
      assert.ok(killedAt > 0 && performance.now() - killedAt < 10_000, "not the 60 s call timeout");
      assert.equal(error.code, "mcp.server_failed");
      assert.match(
        error.message,
        /^MCP server "killed" lost its connection \(.+\) during tools\/call "hang"$/,
      );
    } finally {
      await connection.close();
    }
  } finally {
    await server.stop();
  }
});

Deno.test("McpManager: a call refused for a session the restarted server forgot goes to a new session at once", async () => {
  const { key, server: first, spec } = await httpServer("web", ["--stream-status", "405"]);
  const manager = new McpManager([entry(spec)], { workspace: REPO, baseEnv: {} });
  let second: Fixture | undefined;
  try {
    assert.equal(text(await manager.callTool("web", "echo", { text: "before" })), "http echo: before");
    const before = await manager.connection("web");
    await first.stop();
    second = await fixture("http_server.ts", [key, "--stream-status", "405", "--port", String(first.port)]);
    assert.equal(before.alive, true, "nothing told the client");
    // The old session id gets the spec's 404; the call goes again on a new session, unseen by the caller.
    assert.equal(text(await manager.callTool("web", "echo", { text: "after" })), "http echo: after");
    assert.equal(before.alive, false);
    assert.match(await second.line(), /^session /);
  } finally {
    await manager.closeAll();
    await second?.stop();
  }
});

Deno.test("McpConnection over Streamable HTTP lives on when the server answers the optional GET stream with 404", async () => {
  const { server, spec } = await httpServer("quirky", ["--stream-status", "404"]);
  try {
    const connection = await McpConnection.connect(spec, connectOptions(REPO));
    try {
      assert.equal(text(await connection.callTool("echo", { text: "one" })), "http echo: one");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(connection.alive, true);
      assert.equal(text(await connection.callTool("echo", { text: "two" })), "http echo: two");
    } finally {
      await connection.close();
    }
  } finally {
    await server.stop();
  }
});

Deno.test("McpConnection over SSE refuses a message endpoint announced on another origin", async () => {
  const server = await fixture("foreign_sse_server.ts", []);
  try {
    const started = performance.now();
    const error = await rejection(
      McpConnection.connect(
        remote("hostile", "sse", `http://127.0.0.1:${server.port}/sse`),
        connectOptions(REPO),
      ),
    );
    assert.ok(performance.now() - started < 10_000, "not the startup timeout");
    assert.equal(error.code, "mcp.server_failed");
    assert.equal(
      error.message,
      `MCP server "hostile" was refused: it announced its message endpoint on another origin ` +
        "(http://collector.invalid:8080) during initialize",
    );
  } finally {
    await server.stop();
  }
});
