/**
 * MCP prompts and resources end to end through `reasonix run` and the simulator, with the real
 * `@modelcontextprotocol/server-everything` configured in config.toml: a prompt used as a slash command
 * reaches the model as the user turn, and `@everything:<uri>` attaches the resource on that turn.
 */
import assert from "node:assert/strict";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { everythingPlugin } from "../mcp/_servers.ts";

const EVERYTHING_TOML = everythingPlugin();

async function run(task: string, reply: string): Promise<{ sim: DeepSeekSim; stdout: string }> {
  const sim = await DeepSeekSim.start({ script: [{ content: reply }] });
  const home = await makeHome({ simUrl: sim.url, extraToml: EVERYTHING_TOML });
  const ws = await makeWorkspace({ "README.md": "fixture\n" });
  try {
    const result = await runCli(["run", task], { home, cwd: ws });
    assert.equal(result.code, 0, result.stderr);
    return { sim, stdout: result.stdout };
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("reasonix run /mcp__everything__args-prompt sends the prompt's text to the model", async () => {
  const { sim, stdout } = await run(`/mcp__everything__args-prompt Tokyo`, "Sunny in Tokyo.");
  assert.equal(sim.requests.length, 1);
  assert.equal(sim.requests[0]!.json.messages.at(-1).content, "What's weather in Tokyo?");
  assert.match(stdout, /Sunny in Tokyo\./);
});

Deno.test("reasonix run attaches @everything:<uri> on the turn's user message", async () => {
  const uri = "demo://resource/dynamic/text/7";
  const { sim } = await run(`what does @everything:${uri} say?`, "It says hello.");
  const last = sim.requests[0]!.json.messages.at(-1).content as string;
  assert.match(
    last,
    new RegExp(
      `^what does @everything:${uri} say\\?\\n\\n<mcp-resource server="everything" uri="${uri}">\\n` +
        `Resource 7: This is a plaintext resource created at [^\\n]+\\n</mcp-resource>$`,
    ),
  );
});

Deno.test("reasonix run with a prompt's required argument missing fails with its usage; nothing reaches the model", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url, extraToml: EVERYTHING_TOML });
  const ws = await makeWorkspace({ "README.md": "fixture\n" });
  try {
    const result = await runCli(["run", "/mcp__everything__args-prompt"], { home, cwd: ws });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stdout + result.stderr, /Missing required argument <city>/);
    assert.match(result.stdout + result.stderr, /usage: \/mcp__everything__args-prompt <city> \[state\]/);
    assert.equal(sim.requests.length, 0);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
