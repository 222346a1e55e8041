/**
 * `reasonix run` through the real CLI (fenced, as users run it) with server-everything configured: the
 * model's long-running call reports progress as `tool_progress` lines of `--output-format stream-json`, and
 * as dim lines of the text output on stderr, while the answer and the result stay as they were.
 */
import assert from "node:assert/strict";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { everythingPlugin } from "../mcp/_servers.ts";

const TOOL = "mcp__everything__trigger-long-running-operation";

const TOML = everythingPlugin();

async function withRun(body: (run: (args: string[]) => ReturnType<typeof runCli>) => Promise<void>) {
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ name: TOOL, arguments: `{"duration":1.2,"steps":4}` }] },
      { content: "finished" },
    ],
  });
  const home = await makeHome({ simUrl: sim.url, extraToml: TOML });
  const ws = await makeWorkspace({ "a.txt": "a\n" });
  try {
    await body((args) => runCli(["run", "--yolo", ...args, "run the long operation"], { home, cwd: ws }));
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("reasonix run: stream-json carries the MCP call's tool_progress lines between its call and result", async () => {
  await withRun(async (run) => {
    const out = await run(["--output-format", "stream-json"]);
    assert.equal(out.code, 0, out.stderr);
    const events = out.stdout.trim().split("\n").map((line) => JSON.parse(line));
    const types = events.map((event) => event.type);
    const progress = events.filter((event) => event.type === "tool_progress");
    assert.ok(progress.length >= 1, types.join(","));
    assert.equal(progress[0].name, TOOL);
    assert.equal(progress[0].total, 4);
    assert.ok(types.indexOf("tool_call") < types.indexOf("tool_progress"));
    assert.ok(types.lastIndexOf("tool_progress") < types.indexOf("tool_result"));
    assert.equal(events.at(-1).result, "finished");
  });
});

Deno.test("reasonix run: the text output shows the call's progress on stderr, the answer alone on stdout", async () => {
  await withRun(async (run) => {
    const out = await run([]);
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stderr, /^ {4}… [123]\/4$/m);
    assert.equal(out.stdout.trim(), "finished");
  });
});
