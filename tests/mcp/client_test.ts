import assert from "node:assert/strict";
import { join } from "node:path";
import { McpConnection } from "../../src/mcp/client.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import { liveChildren } from "../../src/sandbox/children.ts";
import { connectOptions, EVERYTHING, FILESYSTEM, fixtureServer, npmServer, stdio } from "./_servers.ts";

const REPO = join(import.meta.dirname!, "../..");

function text(result: { content?: unknown }): string {
  const content = result.content as { type: string; text?: string }[];
  return content.filter((part) => part.type === "text").map((part) => part.text).join("\n");
}

async function rejection(promise: Promise<unknown>): Promise<ReasonixError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ReasonixError, String(error));
    return error;
  }
  assert.fail("expected a rejection");
}

Deno.test("McpConnection: server-everything over stdio answers the first call made right after connect", async () => {
  const cwd = await Deno.makeTempDir();
  const connection = await McpConnection.connect(
    npmServer("everything", EVERYTHING, ["stdio"]),
    connectOptions(cwd),
  );
  try {
    // server-everything announces tools/list_changed as it connects; the call must not wait on a refresh.
    const result = await connection.callTool("echo", { message: "first" });
    assert.match(text(result), /first/);
    const tools = (await connection.listTools()).map((tool) => tool.name);
    assert.ok(tools.includes("echo"), tools.join(","));
    assert.ok(tools.includes("get-sum"), tools.join(","));
    const sum = await connection.callTool("get-sum", { a: 2, b: 40 });
    assert.match(text(sum), /42/);
  } finally {
    await connection.close();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("McpConnection: server-everything's progress reaches the caller; a cancelled call ends at once", async () => {
  const cwd = await Deno.makeTempDir();
  const connection = await McpConnection.connect(
    npmServer("everything", EVERYTHING, ["stdio"]),
    connectOptions(cwd),
  );
  try {
    const progress: [number, number | undefined][] = [];
    const done = await connection.callTool("trigger-long-running-operation", { duration: 0.4, steps: 4 }, {
      onProgress: (event) => progress.push([event.progress, event.total]),
    });
    assert.match(text(done), /Long running operation completed/);
    // The last step may race the result, after which the SDK no longer routes its progress.
    assert.deepEqual(progress.slice(0, 3), [[1, 4], [2, 4], [3, 4]]);

    const controller = new AbortController();
    const started = performance.now();
    const long = connection.callTool("trigger-long-running-operation", { duration: 60, steps: 2 }, {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const cancelled = await rejection(long);
    assert.equal(cancelled.code, "mcp.cancelled");
    assert.equal(
      cancelled.message,
      `Cancelled tools/call "trigger-long-running-operation" of MCP server "everything"`,
    );
    assert.ok(performance.now() - started < 5_000);
    assert.match(text(await connection.callTool("echo", { message: "after" })), /after/);
  } finally {
    await connection.close();
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("McpConnection: server-filesystem reads inside its temp dir and refuses a path outside it", async () => {
  const root = await Deno.makeTempDir();
  const inside = join(root, "allowed");
  await Deno.mkdir(inside);
  await Deno.writeTextFile(join(inside, "note.txt"), "hello from the allowed dir");
  await Deno.writeTextFile(join(root, "secret.txt"), "outside");
  const connection = await McpConnection.connect(npmServer("fs", FILESYSTEM, [inside]), connectOptions(root));
  try {
    const read = await connection.callTool("read_text_file", { path: join(inside, "note.txt") });
    assert.equal(text(read), "hello from the allowed dir");
    const refused = await connection.callTool("read_text_file", { path: join(root, "secret.txt") });
    assert.equal(refused.isError, true);
    assert.doesNotMatch(text(refused), /^outside$/);
  } finally {
    await connection.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("McpConnection: tools/list_changed right after the handshake neither fails a call nor the list", async () => {
  const connection = await McpConnection.connect(
    fixtureServer("announcer", "crash_server.ts", ["--announce"]),
    connectOptions(REPO),
  );
  try {
    const [echo, tools] = await Promise.all([
      connection.callTool("echo", { text: "now" }),
      connection.listTools(),
    ]);
    assert.equal(text(echo), "echo: now");
    assert.deepEqual(tools.map((tool: { name: string }) => tool.name).sort(), [
      "crash",
      "echo",
      "shout",
      "sleep",
    ]);
  } finally {
    await connection.close();
  }
});

Deno.test("McpConnection.callTool() fails a call past its tool timeout, and the server stays usable", async () => {
  const connection = await McpConnection.connect(
    fixtureServer("slow", "crash_server.ts"),
    connectOptions(REPO, { callTimeoutMs: 30_000, toolTimeoutMs: { sleep: 300 } }),
  );
  try {
    const error = await rejection(connection.callTool("sleep", { ms: 5_000 }));
    assert.equal(error.code, "mcp.timeout");
    assert.equal(error.message, `MCP server "slow" did not answer tools/call "sleep" within 0.3 s`);
    assert.equal(text(await connection.callTool("echo", { text: "still here" })), "echo: still here");
  } finally {
    await connection.close();
  }
});

Deno.test("McpConnection.callTool() fails clearly when the server exits mid-call, with its stderr redacted", async () => {
  const token = "tok-4f9a8b7c6d5e4f3a";
  const connection = await McpConnection.connect(
    fixtureServer("crashy", "crash_server.ts", [], { FIXTURE_TOKEN: token }),
    connectOptions(REPO),
  );
  try {
    const started = performance.now();
    const error = await rejection(connection.callTool("crash", {}));
    assert.ok(performance.now() - started < 10_000);
    assert.equal(error.code, "mcp.server_failed");
    assert.equal(error.message, `MCP server "crashy" exited with code 3 during tools/call "crash"`);
    assert.match(error.hint ?? "", /fatal: giving up/);
    assert.match(error.hint ?? "", /Bearer \[redacted\]/);
    assert.doesNotMatch(error.hint ?? "", new RegExp(token));
    const again = await rejection(connection.callTool("echo", { text: "x" }));
    assert.equal(again.code, "mcp.server_failed");
  } finally {
    await connection.close();
  }
});

Deno.test("McpConnection: stderr hides the values of secret-named variables it inherited", async () => {
  const token = "inherited-4f9a8b7c6d5e";
  const connection = await McpConnection.connect(
    fixtureServer("heir", "crash_server.ts"),
    connectOptions(REPO, { baseEnv: { ...connectOptions(REPO).baseEnv, FIXTURE_TOKEN: token } }),
  );
  try {
    const error = await rejection(connection.callTool("crash", {}));
    assert.match(error.hint ?? "", /Bearer \[redacted\]/);
    assert.doesNotMatch(error.hint ?? "", new RegExp(token));
    assert.doesNotMatch(connection.stderrTail(), new RegExp(token));
  } finally {
    await connection.close();
  }
});

Deno.test("McpConnection.connect() fails clearly, without hanging, when the server writes junk to stdout", async () => {
  const started = performance.now();
  const error = await rejection(
    McpConnection.connect(fixtureServer("junk", "junk_server.ts"), connectOptions(REPO)),
  );
  assert.ok(performance.now() - started < 20_000, "no hang until the startup timeout");
  assert.equal(error.code, "mcp.server_failed");
  assert.match(error.message, /^MCP server "junk" wrote something that is not JSON-RPC to stdout: /);
  assert.match(error.message, /"Server listening\.\.\. ␛\[31mready␛\[0m"/, "controls made visible");
  assert.equal(liveChildren(), 0, "the junk server was killed");
});

Deno.test("McpConnection.callTool() fails clearly when the server logs to stdout mid-call", async () => {
  const connection = await McpConnection.connect(
    fixtureServer("chatty", "crash_server.ts"),
    connectOptions(REPO),
  );
  try {
    const error = await rejection(connection.callTool("shout", {}));
    assert.equal(error.code, "mcp.server_failed");
    assert.match(
      error.message,
      /^MCP server "chatty" wrote something that is not JSON-RPC to stdout: "debug: handling shout" .* during tools\/call "shout"$/,
    );
    assert.equal(connection.alive, false);
  } finally {
    await connection.close();
  }
});

Deno.test("McpConnection.connect() names a command that does not exist, and a startup timeout", async () => {
  const missing = await rejection(
    McpConnection.connect(stdio("ghost", "reasonix-no-such-server", []), connectOptions(REPO)),
  );
  assert.equal(missing.code, "mcp.spawn");
  assert.equal(missing.message, `Cannot start MCP server "ghost": "reasonix-no-such-server" was not found`);
  const silent = await rejection(
    McpConnection.connect(stdio("silent", "sleep", ["30"]), connectOptions(REPO, { startupTimeoutMs: 500 })),
  );
  assert.equal(silent.code, "mcp.timeout");
  assert.equal(silent.message, `MCP server "silent" did not finish starting within 0.5 s`);
  assert.equal(liveChildren(), 0);
});

Deno.test("McpConnection.close() kills the server's whole process group", async () => {
  const marker = `reasonix-mcp-group-${crypto.randomUUID()}`;
  const script = `sleep 300 & echo "$!" > ${marker}; exec ${Deno.execPath()} run -A --quiet ` +
    join(REPO, "tests/fixtures/mcp/crash_server.ts");
  const cwd = await Deno.makeTempDir();
  const connection = await McpConnection.connect(stdio("group", "bash", ["-c", script]), connectOptions(cwd));
  const grandchild = Number(await Deno.readTextFile(join(cwd, marker)));
  assert.ok(grandchild > 0);
  await connection.close();
  assert.equal(liveChildren(), 0);
  assert.ok(await dead(grandchild), "the background sleep died with the group");
  await Deno.remove(cwd, { recursive: true });
});

/** Gone, or a zombie waiting for whoever inherited it to reap it. */
async function dead(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 40; tries++) {
    try {
      const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
      if (stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

Deno.test("McpConnection: a Streamable HTTP server gets the static headers and the session id back", async () => {
  const key = crypto.randomUUID();
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--quiet", join(REPO, "tests/fixtures/mcp/http_server.ts"), key],
    cwd: REPO,
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const lines = server.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const port = Number((await lines.read()).value!.trim());
    const url = `http://127.0.0.1:${port}/mcp`;
    const spec = {
      ...stdio("remote", "", []),
      type: "http" as const,
      url,
      headers: { "X-Fixture-Key": key },
    };
    const connection = await McpConnection.connect(spec, connectOptions(REPO));
    try {
      assert.equal(text(await connection.callTool("echo", { text: "over http" })), "http echo: over http");
      assert.deepEqual((await connection.listTools()).map((tool: { name: string }) => tool.name), ["echo"]);
    } finally {
      await connection.close();
    }
    const refused = await rejection(
      McpConnection.connect({ ...spec, name: "nokey", headers: {} }, connectOptions(REPO)),
    );
    assert.match(refused.message, /^MCP server "nokey" failed initialize: .*missing key/);
  } finally {
    server.kill();
    await lines.cancel();
    await server.status;
  }
});
