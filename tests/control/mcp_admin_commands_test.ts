/**
 * `/mcp trust`, `/mcp reconnect` and `/reload` through the Controller with a real stdio fixture server: a
 * project `.mcp.json` server waits for trust, `/mcp trust` records it and starts it, `/reload` keeps an
 * unchanged server's connection and restarts a changed one, and a removed server stops.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { bootController } from "../../src/control/boot.ts";
import type { Controller } from "../../src/control/controller.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { gatedPlugin, rotatingServer } from "../mcp/_oauth_servers.ts";
import { hostEnv } from "../support/host_env.ts";

const CRASH_SERVER = resolve(import.meta.dirname!, "../fixtures/mcp/crash_server.ts");

function mcpJson(servers: Record<string, string[]>): string {
  const entries = Object.entries(servers).map(([name, extra]) => [name, {
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", CRASH_SERVER, ...extra],
  }]);
  return JSON.stringify({ mcpServers: Object.fromEntries(entries) });
}

async function said(controller: Controller, input: string): Promise<string> {
  const result = await controller.submit(input);
  assert.notEqual(result.kind, "turn");
  return result.kind === "turn" ? "" : result.output.join("\n");
}

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) assert.fail("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function stateOf(controller: Controller, name: string): string | undefined {
  return controller.mcp!.status().find((server) => server.name === name)?.state.kind;
}

Deno.test("/mcp trust starts a waiting project server; /reload restarts what changed or crashed, and only that", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ ".mcp.json": mcpJson({ proj: [], other: [] }) });
  const env = hostEnv();
  const controller = await bootController({
    cwd: ws,
    headless: false,
    env,
    paths: resolvePaths({ REASONIX_HOME: home }),
  });
  try {
    const warnings = controller.snapshot().flatMap((event) =>
      event.type === "warning" ? [event.message] : []
    );
    assert.ok(warnings.some((w) => /start one with \/mcp trust <name>/.test(w)), warnings.join("\n"));
    const before = await said(controller, "/mcp");
    assert.match(before, /^proj +refused: untrusted +- +- +-$/m);
    assert.match(
      before,
      /proj: MCP server "proj" from \.mcp\.json is not trusted in this workspace.*\n +\S+ run -A --quiet \S+crash_server\.ts$/m,
    );
    const trusted = await said(controller, "/mcp trust proj");
    assert.match(trusted, /Trusted MCP server "proj" \(.*crash_server\.ts\) in this workspace/);
    await until(() => stateOf(controller, "proj") === "connected");
    assert.equal(stateOf(controller, "other"), "refused", "trusting one server trusts only that one");
    assert.match(await said(controller, "/mcp"), /^proj +connected +4 +0 +0$/m);
    const first = controller.mcp!.peek("proj");
    assert.ok(first);
    await said(controller, "/reload");
    assert.equal(controller.mcp!.peek("proj"), first, "an unchanged server keeps its connection");
    await said(controller, "/mcp reconnect proj");
    const reconnected = controller.mcp!.peek("proj");
    assert.ok(reconnected && reconnected !== first, "reconnect makes a new connection");
    await assert.rejects(controller.mcp!.callTool("proj", "crash", {}), /exited|crash|status 3/);
    assert.equal(controller.mcp!.peek("proj"), undefined, "the crashed server is not connected");
    await said(controller, "/reload");
    await until(() => stateOf(controller, "proj") === "connected");
    const second = controller.mcp!.peek("proj");
    assert.ok(second && second !== reconnected, "/reload started the crashed server again");
    // The definition changes: its trust no longer holds, so /reload stops it and it waits again.
    await Deno.writeTextFile(join(ws, ".mcp.json"), mcpJson({ proj: ["--announce"] }));
    await said(controller, "/reload");
    assert.equal(second.alive, false, "the old process was stopped");
    assert.equal(stateOf(controller, "proj"), "refused");
    assert.equal(stateOf(controller, "other"), undefined, "a removed server is gone");
    assert.match(
      await said(controller, "/mcp"),
      /proj: MCP server "proj" from \.mcp\.json changed since you trusted it/,
    );
    assert.match(await said(controller, "/mcp login proj"), /run `reasonix mcp login proj`/);
    assert.match(await said(controller, "/mcp reconnect nope"), /No MCP server is named "nope"/);
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("/mcp shows a remote server that refuses us without tokens as needs auth, naming the login command", async () => {
  const server = await rotatingServer();
  const sim = await DeepSeekSim.start({ script: [] });
  const extraToml = gatedPlugin(server.url);
  const home = await makeHome({ simUrl: sim.url, extraToml });
  const ws = await makeWorkspace({});
  const env = hostEnv();
  const paths = resolvePaths({ REASONIX_HOME: home });
  const controller = await bootController({ cwd: ws, headless: false, env, paths });
  try {
    await until(() => stateOf(controller, "gated") === "needs_auth");
    const table = await said(controller, "/mcp");
    assert.match(table, /^gated +needs auth +- +- +-$/m);
    assert.match(table, /gated: MCP server "gated" needs authorisation .*run `reasonix mcp login gated`/);
  } finally {
    await controller.close();
    await sim.close();
    await server.stop();
    await removeAll(home, ws);
  }
});
