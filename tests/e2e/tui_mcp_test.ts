/**
 * MCP in the real TUI (tmux) with `@modelcontextprotocol/server-everything` configured: `/mcp` shows the
 * server table, `/` completion lists a prompt command which then runs as the turn, and `@` completes a
 * resource of the server; a long call shows its progress on its running card; `/mcp login` logs in to an
 * OAuth server from the session and reconnects it.
 */
import assert from "node:assert/strict";
import type { TmuxPane } from "../support/tmux.ts";
import { withTui } from "../support/tui.ts";
import { everythingPlugin } from "../mcp/_servers.ts";
import { join, resolve } from "node:path";
import { gatedPlugin, rotatingServer } from "../mcp/_oauth_servers.ts";

const CRASH_SERVER = resolve(import.meta.dirname!, "../fixtures/mcp/crash_server.ts");
const HOSTILE = resolve(import.meta.dirname!, "../fixtures/mcp/hostile_server.ts");

const EVERYTHING_TOML = () => everythingPlugin();

/** `/mcp` until `server` shows `status` (it starts in the background): the screen then. */
async function connectedTable(pane: TmuxPane, server = "everything", status = "connected"): Promise<string> {
  for (let attempt = 0; attempt < 60; attempt++) {
    await pane.type("/mcp");
    await pane.keys("Enter");
    const screen = await pane.waitFor(/SERVER +STATUS +TOOLS +PROMPTS +RESOURCES/);
    if (new RegExp(`${server} +${status}`).test(screen)) return screen;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${server} never showed ${status}`);
}

Deno.test("tui mcp: /mcp shows the server table; / completes a prompt command that becomes the turn", async () => {
  await withTui([{ content: "Rain in Lima." }], async ({ pane, sim }) => {
    const table = await connectedTable(pane);
    assert.match(table, /everything +connected +\d+ +\d+ +\d+/);
    await pane.type("/mcp__everything__");
    // The prompts are listed in the background once the menu first asks for them.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await pane.type("ar");
    const menu = await pane.waitFor(/› \/mcp__everything__args-prompt <city> \[state\]/);
    assert.match(menu, /MCP prompt of everything: A prompt with two arguments/);
    await pane.keys("Tab");
    await pane.waitFor(/› \/mcp__everything__args-prompt /);
    await pane.type("Lima");
    await pane.waitFor(/\/mcp__everything__args-prompt Lima/);
    await pane.keys("Enter");
    await pane.waitFor(/Rain in Lima\./);
    assert.equal(sim.requests[0]!.json.messages.at(-1).content, "What's weather in Lima?");
    await pane.type("see @everything:demo://resource/static/document/featu");
    await pane.waitFor(/› everything:demo:\/\/resource\/static\/document\/features\.md/);
  }, { size: [120, 40], extraToml: EVERYTHING_TOML });
});

Deno.test("tui mcp: a project server waiting for trust is announced at start; /mcp trust starts it", async () => {
  const mcpJson = JSON.stringify({
    mcpServers: { proj: { command: Deno.execPath(), args: ["run", "-A", "--quiet", CRASH_SERVER] } },
  });
  await withTui([], async ({ pane }) => {
    await pane.waitFor(/review them with \/mcp, start one with \/mcp trust <name>/);
    await pane.type("/mcp");
    await pane.keys("Enter");
    await pane.waitFor(/proj +refused: untrusted/);
    await pane.type("/mcp trust proj");
    await pane.keys("Enter");
    await pane.waitFor(/Trusted MCP server "proj"/);
    const table = await connectedTable(pane, "proj");
    assert.match(table, /proj +connected +4 +0 +0/);
  }, { size: [140, 40], files: { "README.md": "fixture\n", ".mcp.json": mcpJson } });
});

Deno.test("tui mcp: a hostile server's prompt description shows its escape sequences as visible marks", async () => {
  const toml = () =>
    [
      `[[plugins]]`,
      `name = "hostile"`,
      `command = ${JSON.stringify(Deno.execPath())}`,
      `args = ["run", "-A", "--quiet", ${JSON.stringify(HOSTILE)}]`,
    ].join("\n");
  await withTui([], async ({ pane }) => {
    await connectedTable(pane, "hostile");
    await pane.type("/mcp__hostile__");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await pane.type("g");
    const menu = await pane.waitFor(/› \/mcp__hostile__greet <who>/);
    assert.match(menu, /Greets ␛\]0;pwned␛\\␛\[2J␛\[31mred␇<U\+202E>evil/);
    assert.match(menu, /SERVER +STATUS/, "nothing cleared the screen");
    assert.doesNotMatch(menu, /bad.*name/, "the untypeable prompt is not offered");
  }, { size: [140, 40], extraToml: toml });
});

Deno.test("tui mcp: a long call's progress shows on its running card, then the card settles", async () => {
  const call = {
    name: "mcp__everything__trigger-long-running-operation",
    arguments: `{"duration":6,"steps":3}`,
  };
  await withTui(
    [{ reasoning: "run it", toolCalls: [call] }, { content: "All steps done." }],
    async ({ pane }) => {
      await connectedTable(pane);
      await pane.type("run the long operation");
      await pane.keys("Enter");
      const running = await pane.waitFor(/◌ mcp__everything__trigger-long-running-operation.* · [12]\/3/);
      assert.doesNotMatch(running, /✓ mcp__everything__trigger-long-running-operation/);
      const done = await pane.waitFor(/All steps done\./);
      assert.match(done, /✓ mcp__everything__trigger-long-running-operation.* · \d/);
      assert.doesNotMatch(done, /◌ mcp__everything__trigger-long-running-operation/);
    },
    { size: [140, 40], extraToml: EVERYTHING_TOML, args: ["--yolo"] },
  );
});

Deno.test("tui mcp: /mcp login runs the OAuth login from the session, then the server shows connected", async () => {
  const server = await rotatingServer();
  const dir = await Deno.makeTempDir();
  // What a person clicking "Allow" does: follow the redirects back to the loopback callback.
  const browser = join(dir, "browser.sh");
  await Deno.writeTextFile(browser, `#!/bin/sh\nsleep 1\nexec curl -s -L -o /dev/null "$1"\n`);
  await Deno.chmod(browser, 0o755);
  const toml = () => gatedPlugin(server.url);
  try {
    await withTui([], async ({ pane }) => {
      await connectedTable(pane, "gated", "needs auth");
      await pane.type("/mcp login gated");
      await pane.keys("Enter");
      await pane.waitFor(/Open this URL to authorise Reasonix for MCP server "gated":/);
      await pane.waitFor(/Logged in to MCP server "gated"; it is reconnected/);
      const table = await connectedTable(pane, "gated");
      assert.match(table, /gated +connected +[1-9]\d* /);
    }, { size: [140, 40], extraToml: toml, env: { BROWSER: browser, PATH: Deno.env.get("PATH") ?? "" } });
  } finally {
    await server.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
