import assert from "node:assert/strict";
import { join } from "node:path";
import type { McpServerDecl } from "../../src/config/types.ts";
import type { McpServerEntry } from "../../src/mcp/config.ts";
import type { McpServerSpec } from "../../src/mcp/expand.ts";
import { McpManager } from "../../src/mcp/manager.ts";
import { liveChildren } from "../../src/sandbox/children.ts";
import { ReasonixError } from "../../src/lib/errors.ts";
import { loadConfig } from "../../src/config/load.ts";
import { resolveMcpServers } from "../../src/mcp/config.ts";
import { fixture } from "../config/_fixture.ts";
import { fixtureServer, stdio } from "./_servers.ts";
import { hostEnv } from "../support/host_env.ts";

const REPO = join(import.meta.dirname!, "../..");
const BASE_ENV = hostEnv();

function entry(
  spec: McpServerSpec,
  options: Partial<McpServerEntry> & { autoStart?: boolean; source?: McpServerDecl["source"] } = {},
): McpServerEntry {
  const decl: McpServerDecl = {
    ...spec,
    toolTimeoutSeconds: {},
    autoStart: options.autoStart ?? true,
    source: options.source ?? "global",
    file: join(REPO, options.source === "mcp_json" ? ".mcp.json" : "config.toml"),
    at: { entry: { line: 1, column: 1 } },
  };
  return {
    decl,
    spec,
    trust: options.trust ?? "user",
    startupTimeoutMs: options.startupTimeoutMs ?? 60_000,
    callTimeoutMs: 30_000,
    toolTimeoutMs: {},
  };
}

function text(result: { content?: unknown }): string {
  return (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

Deno.test("McpManager.startInBackground() returns at once; a server too slow to start fails alone", async () => {
  const manager = new McpManager([
    entry(fixtureServer("good", "crash_server.ts")),
    entry(stdio("slow", "sleep", ["30"]), { startupTimeoutMs: 500 }),
  ], { workspace: REPO, baseEnv: BASE_ENV });
  try {
    const started = performance.now();
    manager.startInBackground();
    assert.ok(performance.now() - started < 200, "nothing waited for a server");
    assert.deepEqual(manager.status().map((s) => s.state.kind), ["starting", "starting"]);
    assert.equal(text(await manager.callTool("good", "echo", { text: "hi" })), "echo: hi");
    const slow = () => manager.status().find((s) => s.name === "slow")!.state;
    await until(() => slow().kind === "failed");
    assert.deepEqual(slow(), {
      kind: "failed",
      reason: `MCP server "slow" did not finish starting within 0.5 s`,
    });
    await assert.rejects(manager.connection("slow"), /did not finish starting within 0\.5 s/);
  } finally {
    await manager.closeAll();
  }
  assert.equal(liveChildren(), 0);
});

Deno.test("McpManager: an auto_start = false server starts on first use", async () => {
  const manager = new McpManager([entry(fixtureServer("lazy", "crash_server.ts"), { autoStart: false })], {
    workspace: REPO,
    baseEnv: BASE_ENV,
  });
  try {
    manager.startInBackground();
    assert.deepEqual(manager.status(), [{ name: "lazy", state: { kind: "idle" } }]);
    assert.equal(liveChildren(), 0);
    assert.equal(text(await manager.callTool("lazy", "echo", { text: "late" })), "echo: late");
    assert.deepEqual(manager.status(), [{ name: "lazy", state: { kind: "connected" } }]);
  } finally {
    await manager.closeAll();
  }
});

Deno.test("McpManager: a server that crashed fails its call and starts again on its next use", async () => {
  const manager = new McpManager([entry(fixtureServer("phoenix", "crash_server.ts"))], {
    workspace: REPO,
    baseEnv: BASE_ENV,
  });
  try {
    await assert.rejects(
      manager.callTool("phoenix", "crash", {}),
      /exited with code 3 during tools\/call "crash"/,
    );
    assert.deepEqual(manager.status(), [{ name: "phoenix", state: { kind: "idle" } }]);
    assert.equal(text(await manager.callTool("phoenix", "echo", { text: "again" })), "echo: again");
  } finally {
    await manager.closeAll();
  }
});

Deno.test("McpManager: a server writing junk to stdout is reported failed with that line, not left starting", async () => {
  const manager = new McpManager([entry(fixtureServer("junk", "junk_server.ts"))], {
    workspace: REPO,
    baseEnv: BASE_ENV,
  });
  try {
    manager.startInBackground();
    const state = () => manager.status()[0]!.state;
    await until(() => state().kind === "failed", 20_000);
    assert.match(
      (state() as { reason: string }).reason,
      /^MCP server "junk" wrote something that is not JSON-RPC to stdout: "Server listening\.\.\. .*" .* during initialize$/,
    );
    await assert.rejects(manager.callTool("junk", "echo", {}), /not JSON-RPC/);
  } finally {
    await manager.closeAll();
  }
  assert.equal(liveChildren(), 0);
});

Deno.test("McpManager: an unapproved project server is refused unless allowed for this run", async () => {
  const server = () =>
    entry(fixtureServer("proj", "crash_server.ts"), { source: "mcp_json", trust: "untrusted" });
  const refusing = new McpManager([server()], { workspace: REPO, baseEnv: BASE_ENV });
  refusing.startInBackground();
  assert.equal(refusing.status()[0]!.state.kind, "refused");
  assert.equal(liveChildren(), 0, "its command never ran");
  const error = await refusing.connection("proj").catch((e) => e);
  assert.ok(error instanceof ReasonixError);
  assert.equal(error.code, "mcp.not_started");
  assert.match(error.message, /`reasonix mcp trust proj`/);
  const allowing = new McpManager([server()], {
    workspace: REPO,
    baseEnv: BASE_ENV,
    trustProjectServers: true,
  });
  try {
    assert.equal(text(await allowing.callTool("proj", "echo", { text: "ok" })), "echo: ok");
  } finally {
    await allowing.closeAll();
  }
});

Deno.test("McpManager honours startup_timeout_seconds, call_timeout_seconds and tool_timeout_seconds from config.toml", async () => {
  await using fx = await fixture();
  const command = JSON.stringify(Deno.execPath());
  const args = JSON.stringify(["run", "-A", "--quiet", "--config", join(REPO, "deno.json")].concat(
    join(REPO, "tests/fixtures/mcp/crash_server.ts"),
  ));
  await fx.write(
    fx.paths.globalConfigFile,
    `[[plugins]]\nname = "mute"\ncommand = "sleep"\nargs = ["30"]\nstartup_timeout_seconds = 0.4

[[plugins]]\nname = "slow"\ncommand = ${command}\nargs = ${args}\ncall_timeout_seconds = 0.6

[[plugins]]\nname = "tool"\ncommand = ${command}\nargs = ${args}\ntool_timeout_seconds = { sleep = 0.3 }
`,
  );
  const config = await loadConfig({ workspace: fx.workspace, paths: fx.paths });
  const { servers } = await resolveMcpServers(config, { workspace: fx.workspace, paths: fx.paths, env: {} });
  const manager = new McpManager(servers, { workspace: fx.workspace, baseEnv: BASE_ENV });
  try {
    await assert.rejects(manager.connection("mute"), /^.*"mute" did not finish starting within 0\.4 s$/);
    const sleep = (server: string) => manager.callTool(server, "sleep", { ms: 5_000 });
    await assert.rejects(sleep("slow"), /^.*"slow" did not answer tools\/call "sleep" within 0\.6 s$/);
    await assert.rejects(sleep("tool"), /^.*"tool" did not answer tools\/call "sleep" within 0\.3 s$/);
    assert.equal(text(await manager.callTool("tool", "echo", { text: "quick" })), "echo: quick");
  } finally {
    await manager.closeAll();
  }
  assert.equal(liveChildren(), 0);
});

Deno.test("McpManager.settled() waits for starting servers, but never past its timeout", async () => {
  const ready = new McpManager([
    entry(fixtureServer("good", "crash_server.ts")),
    entry(fixtureServer("lazy", "crash_server.ts"), { autoStart: false }),
  ], { workspace: REPO, baseEnv: BASE_ENV });
  const slow = new McpManager([entry(stdio("slow", "sleep", ["30"]), { startupTimeoutMs: 5000 })], {
    workspace: REPO,
    baseEnv: BASE_ENV,
  });
  try {
    assert.equal(ready.autoStarts("good"), true);
    assert.equal(ready.autoStarts("lazy"), false);
    ready.startInBackground();
    slow.startInBackground();
    await ready.settled(60_000);
    assert.deepEqual(ready.status().map((s) => s.state.kind), ["connected", "idle"]);
    const started = performance.now();
    await slow.settled(1000);
    const waited = performance.now() - started;
    assert.ok(waited >= 900 && waited < 4000, `waited ${waited} ms`);
    assert.equal(slow.status()[0]!.state.kind, "starting");
  } finally {
    await ready.closeAll();
    await slow.closeAll();
  }
});
