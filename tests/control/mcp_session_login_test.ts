/**
 * `/mcp login NAME` inside a session, through the Controller, against the OAuth fixture with refresh-token
 * rotation (tests/fixtures/mcp/oauth_server.ts): in a face at this machine the command prints the
 * authorisation URL, runs `$BROWSER` with it and returns at once (the session keeps taking input), and once
 * the browser comes back the server reconnects and `/mcp` shows it connected. Closing the session ends a
 * login still waiting (its loopback port is free again). Without a person at this machine (`reasonix run`)
 * the command names `reasonix mcp login NAME` and starts nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bootController } from "../../src/control/boot.ts";
import type { Controller } from "../../src/control/controller.ts";
import type { ReasonixEvent } from "../../src/control/mod.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { followInBrowser, gatedPlugin, rotatingServer } from "../mcp/_oauth_servers.ts";
import { hostEnv } from "../support/host_env.ts";

const LOCAL = { localBrowser: true };

async function said(controller: Controller, input: string, face = {}): Promise<string> {
  const result = await controller.submit(input, face);
  if (result.kind !== "command") assert.fail(`${input} ran as ${result.kind}`);
  return result.output.join("\n");
}

async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function stateOf(controller: Controller, name: string): string | undefined {
  return controller.mcp!.status().find((server) => server.name === name)?.state.kind;
}

function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

function portFree(port: number): boolean {
  try {
    Deno.listen({ hostname: "127.0.0.1", port }).close();
    return true;
  } catch {
    return false;
  }
}

async function browserScript(dir: string): Promise<{ path: string; urls: () => Promise<string[]> }> {
  const path = join(dir, "browser.sh");
  const log = join(dir, "opened.txt");
  await Deno.writeTextFile(path, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${log}'\n`);
  await Deno.chmod(path, 0o755);
  const urls = async () => (await Deno.readTextFile(log).catch(() => "")).split("\n").filter(Boolean);
  return { path, urls };
}

Deno.test("/mcp login in a session logs in without blocking input, then the server reconnects", async () => {
  const server = await rotatingServer();
  const sim = await DeepSeekSim.start({ script: [] });
  const port = freePort();
  const extraToml = gatedPlugin(server.url, `callback_port = ${port}\n`);
  const home = await makeHome({ simUrl: sim.url, extraToml });
  const ws = await makeWorkspace({});
  const browser = await browserScript(home);
  const env = { ...hostEnv(), BROWSER: browser.path };
  const controller = await bootController({
    cwd: ws,
    headless: false,
    env,
    paths: resolvePaths({ REASONIX_HOME: home }),
  });
  const events: ReasonixEvent[] = [];
  controller.subscribe((event) => events.push(event));
  let closed = false;
  try {
    await until(() => stateOf(controller, "gated") === "needs_auth");
    // A face without a person at this machine is told the command and starts nothing.
    assert.match(await said(controller, "/mcp login gated"), /run `reasonix mcp login gated`/);
    assert.ok(portFree(port));

    const started = await said(controller, "/mcp login gated", LOCAL);
    const url = started.split("\n").find((line) => line.startsWith(server.base));
    assert.match(started, /^Open this URL to authorise Reasonix for MCP server "gated":\n/);
    assert.ok(url?.startsWith(`${server.base}/authorize?`), started);
    // The command returned while the login waits for the browser: the session takes other input.
    assert.equal(portFree(port), false, "the callback listens");
    assert.match(await said(controller, "/mcp"), /^gated +needs auth/m);
    assert.match(await said(controller, "/mcp login gated", LOCAL), /already waiting for the browser/);

    await until(async () => (await browser.urls()).length > 0);
    assert.deepEqual(await browser.urls(), [url], "$BROWSER got the printed URL");
    await followInBrowser(new URL(url!));
    await until(() => stateOf(controller, "gated") === "connected");
    await until(() =>
      events.some((event) =>
        event.type === "command_output" && event.text === 'Logged in to MCP server "gated"; it is reconnected'
      )
    );
    assert.match(await said(controller, "/mcp"), /^gated +connected +[1-9]\d* /m);
    await until(() => portFree(port));

    // A second login waits for the browser; closing the session ends it and frees the port.
    const again = await said(controller, "/mcp login gated", LOCAL);
    assert.match(again, /\/authorize\?/);
    assert.equal(portFree(port), false);
    await controller.close();
    closed = true;
    await until(() => portFree(port), 5_000);
  } finally {
    if (!closed) await controller.close();
    await sim.close();
    await server.stop();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run '/mcp login NAME' refuses, naming the command to run in a shell", async () => {
  const server = await rotatingServer();
  const sim = await DeepSeekSim.start({ script: [] });
  const extraToml = gatedPlugin(server.url);
  const home = await makeHome({ simUrl: sim.url, extraToml });
  const ws = await makeWorkspace({});
  const browser = await browserScript(home);
  try {
    const run = await runCli(["run", "/mcp login gated"], { home, cwd: ws, env: { BROWSER: browser.path } });
    assert.match(run.stdout + run.stderr, /run `reasonix mcp login gated`/);
    assert.doesNotMatch(run.stdout + run.stderr, /authorize\?/);
    assert.deepEqual(await browser.urls(), []);
    assert.equal(sim.requests.length, 0);
  } finally {
    await sim.close();
    await server.stop();
    await removeAll(home, ws);
  }
});
