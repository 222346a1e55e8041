/**
 * MCP tools through `reasonix run` (fenced, as users run it) and the simulator: the model calls a tool of
 * the real server-everything and reads its result; a project's `.mcp.json` server is refused headless
 * until `reasonix mcp trust` approved it, then answers.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { everythingPlugin } from "../mcp/_servers.ts";
import { toolResults } from "../support/sim_messages.ts";

const TOOLS_SERVER = resolve(import.meta.dirname!, "../fixtures/mcp/tools_server.ts");

function capabilityCall(id: string, args: Record<string, unknown>): ScriptedReply {
  const call = { action: "call", capability_id: id, arguments: args };
  return { reasoning: "call it", toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

Deno.test("reasonix run: the model calls server-everything's echo and reads its result", async () => {
  const script: ScriptedReply[] = [
    capabilityCall("tool:mcp__everything__echo", { message: "hello from the model" }),
    { reasoning: "done", content: "The server echoed it." },
  ];
  const sim = await DeepSeekSim.start({ script });
  // Started on first use: the first run of an npm server may download it.
  const toml = everythingPlugin([`auto_start = false`]);
  const home = await makeHome({ simUrl: sim.url, extraToml: toml });
  const ws = await makeWorkspace({ "a.txt": "a\n" });
  try {
    const run = await runCli(["run", "echo something"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout.trim(), "The server echoed it.");
    assert.match(toolResults(sim, 1)[0]!, /hello from the model/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run refuses an untrusted .mcp.json server, and uses it once trusted", async () => {
  const call = capabilityCall("tool:mcp__proj__lookup", { key: "k" });
  const done: ScriptedReply = { reasoning: "done", content: "ok" };
  const sim = await DeepSeekSim.start({ script: [call, done, call, done] });
  const home = await makeHome({ simUrl: sim.url });
  const mcpJson = {
    mcpServers: { proj: { command: Deno.execPath(), args: ["run", "-A", "--quiet", TOOLS_SERVER] } },
  };
  const ws = await makeWorkspace({ ".mcp.json": JSON.stringify(mcpJson) });
  try {
    const refused = await runCli(["run", "look it up"], { home, cwd: ws });
    assert.equal(refused.code, 0, refused.stderr);
    assert.match(refused.stderr, /MCP server "proj" from \.mcp\.json is not trusted in this workspace/);
    assert.match(refused.stderr, /reasonix mcp trust proj/);
    assert.match(toolResults(sim, 1)[0]!, /^Error \[capability\.unknown\]/);

    const trusted = await runCli(["mcp", "trust", "proj", "--yes"], { home, cwd: ws });
    assert.equal(trusted.code, 0, trusted.stderr);
    const used = await runCli(["run", "look it up"], { home, cwd: ws });
    assert.equal(used.code, 0, used.stderr);
    assert.doesNotMatch(used.stderr, /not trusted/);
    assert.equal(toolResults(sim, 3)[0], "value of k");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run under the fence starts a server whose command is found on PATH", async () => {
  const call = capabilityCall("tool:mcp__wrapped__lookup", { key: "walled" });
  const sim = await DeepSeekSim.start({ script: [call, { reasoning: "done", content: "ok" }] });
  const bin = await Deno.makeTempDir({ prefix: "reasonix-bin-" });
  await Deno.writeTextFile(
    join(bin, "tools-srv"),
    `#!/bin/sh\nexec ${JSON.stringify(Deno.execPath())} run -A --quiet ${JSON.stringify(TOOLS_SERVER)}\n`,
  );
  await Deno.chmod(join(bin, "tools-srv"), 0o755);
  const home = await makeHome({
    simUrl: sim.url,
    extraToml: `[[plugins]]\nname = "wrapped"\ncommand = "tools-srv"\n`,
  });
  const ws = await makeWorkspace({ "a.txt": "a\n" });
  try {
    const env = { PATH: `${bin}:${Deno.env.get("PATH") ?? ""}` };
    const run = await runCli(["run", "look it up"], { home, cwd: ws, env });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /NotCapable|Requires run access/);
    assert.equal(toolResults(sim, 1)[0], "value of walled");
  } finally {
    await sim.close();
    await removeAll(home, ws, bin);
  }
});
