import assert from "node:assert/strict";
import { join } from "node:path";
import { McpConnection } from "../../src/mcp/client.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import { liveChildren } from "../../src/sandbox/children.ts";
import { connectOptions, FILESYSTEM, fixtureServer, npmServer, stdio } from "./_servers.ts";

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

Deno.test("McpConnection: server-filesystem without arguments is confined to the workspace, its root", async () => {
  const parent = await Deno.makeTempDir();
  const workspace = join(parent, "workspace");
  await Deno.mkdir(workspace);
  await Deno.writeTextFile(join(workspace, "note.txt"), "hello from the workspace");
  await Deno.writeTextFile(join(parent, "secret.txt"), "outside");
  // No directory on its command line: the server asks roots/list and allows what the client answers.
  const connection = await McpConnection.connect(npmServer("fs", FILESYSTEM, []), connectOptions(workspace));
  try {
    // It asks once initialized, in the background: the answer arrives shortly after the handshake.
    let allowed = "";
    for (let tries = 0; tries < 100 && !allowed.includes(workspace); tries++) {
      allowed = text(await connection.callTool("list_allowed_directories", {}));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(allowed, `Allowed directories:\n${workspace}`);
    const read = await connection.callTool("read_text_file", { path: join(workspace, "note.txt") });
    assert.equal(text(read), "hello from the workspace");
    const refused = await connection.callTool("read_text_file", { path: join(parent, "secret.txt") });
    assert.equal(refused.isError, true);
    assert.match(text(refused), /outside allowed directories/);
  } finally {
    await connection.close();
    await Deno.remove(parent, { recursive: true });
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
