/**
 * MCP prompts and resources through the Controller, against the real `@modelcontextprotocol/server-everything`
 * and a hostile fixture server: prompts run as slash commands and become the user turn, `@server:uri`
 * attaches a resource on the turn's tail with the prefix unchanged, server text is escaped for the terminal.
 */
import assert from "node:assert/strict";
import { resolve } from "node:path";
import { bootController } from "../../src/control/boot.ts";
import type { Controller } from "../../src/control/controller.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { mcpMentionTargets } from "../../src/control/mcp_resources.ts";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { assertPrependOnly, assertStablePrefix } from "../support/prefix_guard.ts";
import { denoEnv, EVERYTHING } from "../mcp/_servers.ts";

const HOSTILE = resolve(import.meta.dirname!, "../fixtures/mcp/hostile_server.ts");

export function pluginToml(name: string, args: string[]): string {
  const list = args.map((arg) => JSON.stringify(arg)).join(", ");
  return `[[plugins]]\nname = "${name}"\ncommand = ${JSON.stringify(Deno.execPath())}\nargs = [${list}]\n` +
    `startup_timeout_seconds = 120\n`;
}

export const EVERYTHING_TOML = pluginToml("everything", [
  "run",
  "-A",
  "--no-lock",
  "--quiet",
  EVERYTHING,
  "stdio",
]);

/** What a slash command printed (fails when the input ran a turn instead). */
async function said(controller: Controller, input: string): Promise<string> {
  const result = await controller.submit(input);
  assert.notEqual(result.kind, "turn", `${input} ran a turn`);
  return result.kind === "turn" ? "" : result.output.join("\n");
}

/** No control character but newline, and no bidi override, in text bound for a terminal. */
function assertNoControls(text: string): void {
  const raw = [...text].filter((char) => {
    const code = char.codePointAt(0)!;
    return (code < 0x20 && char !== "\n") || code === 0x7f || code === 0x202e;
  });
  assert.deepEqual(raw, [], text);
}

async function withSession(
  script: ScriptedReply[],
  toml: string,
  body: (controller: Controller, sim: DeepSeekSim) => Promise<void>,
): Promise<void> {
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url, extraToml: toml });
  const ws = await makeWorkspace({ "README.md": "fixture\n" });
  const controller = await bootController({
    cwd: ws,
    headless: true,
    env: denoEnv(),
    paths: resolvePaths({ REASONIX_HOME: home }),
  });
  try {
    await body(controller, sim);
  } finally {
    await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("an MCP prompt runs as /mcp__<server>__<prompt>: its messages are the user turn the model gets", async () => {
  await withSession([{ content: "sunny" }, { content: "mild" }], EVERYTHING_TOML, async (controller, sim) => {
    // Typed before the server finished starting: submit waits for that server's prompts.
    const result = await controller.submit("/mcp__everything__args-prompt Paris");
    assert.equal(result.kind, "turn");
    assert.equal(sim.requests[0]!.json.messages.at(-1).content, "What's weather in Paris?");
    const named = await controller.submit(`/mcp__everything__args-prompt state="Île-de-France" city=Paris`);
    assert.equal(named.kind, "turn");
    assert.equal(sim.requests[1]!.json.messages.at(-1).content, "What's weather in Paris, Île-de-France?");
    const missing = await controller.submit("/mcp__everything__args-prompt");
    assert.equal(missing.kind, "command");
    assert.match(
      missing.output.join("\n"),
      /^error: Missing required argument <city>\nhint: usage: \/mcp__everything__args-prompt <city> \[state\]\n {2}city \(required\): Name of the city\n {2}state$/,
    );
    assert.equal(sim.requests.length, 2, "a usage error never reaches the model");
    const help = await said(controller, "/help");
    assert.match(
      help,
      /\/mcp__everything__simple-prompt +MCP prompt of everything: A prompt with no arguments/,
    );
    assert.ok(
      controller.commands.complete("/mcp__everything__s").includes("/mcp__everything__simple-prompt"),
    );
    const table = await said(controller, "/mcp");
    assert.match(
      table,
      /^SERVER +STATUS +TOOLS +PROMPTS +RESOURCES\neverything +connected +\d+ +[1-9]\d* +[1-9]\d*$/m,
    );
  });
});

Deno.test("a prompt with an embedded resource inlines its text; an unknown server's prompt is an unknown command", async () => {
  await withSession([{ content: "ok" }], EVERYTHING_TOML, async (controller, sim) => {
    const result = await controller.submit("/mcp__everything__resource-prompt Text 2");
    assert.equal(result.kind, "turn");
    const content = sim.requests[0]!.json.messages.at(-1).content as string;
    assert.match(content, /^This prompt includes the Text resource with id: 2/);
    assert.match(
      content,
      /<mcp-resource uri="demo:\/\/resource\/dynamic\/text\/2">\nResource 2: This is a plaintext/,
    );
    const unknown = await controller.submit("/mcp__nowhere__x");
    assert.equal(unknown.kind, "unknown");
  });
});

Deno.test("@server:uri attaches the resource on the tail of that user message; the prefix stays byte-stable", async () => {
  const script = [{ content: "one" }, { content: "two" }, { content: "three" }];
  await withSession(script, EVERYTHING_TOML, async (controller, sim) => {
    await controller.runTurn("hello");
    const uri = "demo://resource/static/document/features.md";
    await controller.runTurn(`summarise @everything:${uri} and @everything:demo://resource/dynamic/blob/1`);
    await controller.runTurn("thanks");
    const tail = sim.requests[1]!.json.messages.at(-1).content as string;
    assert.ok(tail.startsWith(`summarise @everything:${uri} and`), tail.slice(0, 200));
    assert.match(tail, new RegExp(`<mcp-resource server="everything" uri="${uri}">\\n# `));
    assert.match(
      tail,
      /uri="demo:\/\/resource\/dynamic\/blob\/1">\n\[not attached: binary content \(text\/plain\), about \d+ bytes\]\n<\/mcp-resource>$/,
    );
    assert.equal(sim.requests[2]!.json.messages.at(-1).content, "thanks");
    const bodies = sim.requests.map((request) => request.body);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
    const targets = await mcpMentionTargets(controller.mcp);
    assert.ok(targets.includes(`everything:${uri}`), targets.join("\n"));
    assert.ok(
      targets.includes("everything:demo://resource/dynamic/text/{resourceId}"),
      "templates complete too",
    );
  });
});

Deno.test("a hostile server's names and descriptions never reach the terminal raw", async () => {
  const toml = pluginToml("hostile", ["run", "-A", "--quiet", HOSTILE]);
  await withSession([{ content: "hi" }, { content: "hello" }], toml, async (controller, sim) => {
    await controller.mcp!.connection("hostile");
    assert.ok(await controller.commands.load("mcp__hostile__greet"));
    const names = controller.commands.list().map((command) => command.name).filter((n) =>
      n.startsWith("mcp__")
    );
    assert.deepEqual(names, ["mcp__hostile__greet"], "a prompt name that cannot be typed is skipped");
    const help = await said(controller, "/help");
    assertNoControls(help);
    assert.match(help, /Greets ␛\]0;pwned␛\\␛\[2J␛\[31mred␇<U\+202E>evil/);
    const usage = await said(controller, "/mcp__hostile__greet");
    assertNoControls(usage);
    assert.match(usage, /who \(required\): who ␛/);
    const table = await said(controller, "/mcp");
    assertNoControls(table);
    const targets = await mcpMentionTargets(controller.mcp);
    assert.deepEqual(targets, ["hostile:note://plain"], "a URI with controls is not offered");
    await controller.runTurn("read @hostile:note://plain.");
    assert.match(
      sim.requests[0]!.json.messages.at(-1).content,
      /uri="note:\/\/plain">\nplain note text\n<\/mcp-resource>$/,
    );
    const greeted = await controller.submit("/mcp__hostile__greet Bob");
    assert.equal(greeted.kind, "turn");
    assert.equal(
      sim.requests[1]!.json.messages.at(-1).content,
      "Say hello to Bob, then read @README.md and @hostile:note://plain",
      "a prompt's own @mentions are sent as text, nothing is read for them",
    );
  });
});

Deno.test("a prompt the server adds later appears after its list_changed notification", async () => {
  const toml = pluginToml("hostile", ["run", "-A", "--quiet", HOSTILE]);
  await withSession([], toml, async (controller) => {
    assert.ok(await controller.commands.load("mcp__hostile__greet"));
    const names = () => controller.commands.list().map((command) => command.name);
    assert.ok(!names().includes("mcp__hostile__later"));
    await controller.mcp!.callTool("hostile", "add_prompt", {});
    const deadline = Date.now() + 10_000;
    while (!names().includes("mcp__hostile__later")) {
      assert.ok(Date.now() < deadline, "the new prompt never appeared");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(names().includes("mcp__hostile__greet"), "the earlier prompts stay");
  });
});
