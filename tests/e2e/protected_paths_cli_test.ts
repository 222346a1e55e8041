/**
 * Protected paths through the real CLI and its fence, with REASONIX_HOME inside the workspace: the
 * model cannot read `.reasonix/.env`, rewrite `.reasonix/config.toml`, move `.reasonix` away, or plant
 * a git hook; every call comes back as a tool error and the files are unchanged.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("reasonix run refuses the home inside the workspace and .git/hooks to every file tool", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const ws = await makeWorkspace({ "a.txt": "alpha\n", ".git/config": "[core]\n", ".git/hooks/.keep": "" });
  const outsideHome = await makeHome({ simUrl: sim.url, apiKey: "sk-never-leaks" });
  const home = join(ws, ".reasonix");
  await Deno.rename(outsideHome, home);
  const config = await Deno.readTextFile(join(home, "config.toml"));
  const calls = [
    { name: "read_file", arguments: JSON.stringify({ path: ".reasonix/.env" }) },
    { name: "write_file", arguments: JSON.stringify({ path: ".reasonix/config.toml", content: "x = 1\n" }) },
    {
      name: "move_file",
      arguments: JSON.stringify({ source_path: ".reasonix", destination_path: "stolen" }),
    },
    {
      name: "write_file",
      arguments: JSON.stringify({ path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" }),
    },
  ];
  sim.push(...calls.map((call) => ({ toolCalls: [call] })), { content: "done" });
  try {
    const run = await runCli(["run", "--yolo", "--output-format", "json", "try it"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const results: string[] = sim.requests.at(-1)!.json.messages
      .filter((m: { role: string }) => m.role === "tool")
      .map((m: { content: string }) => m.content);
    assert.equal(results.length, 4);
    for (const result of results) assert.doesNotMatch(result, /sk-never-leaks|^Wrote|^Moved/);
    assert.match(results[0]!, /no such file or directory/);
    assert.match(results[1]!, /hidden from tools/);
    assert.match(results[2]!, /hidden/);
    assert.match(results[3]!, /read-only to tools/);
    assert.equal(await Deno.readTextFile(join(home, "config.toml")), config);
    assert.equal(await Deno.readTextFile(join(home, ".env")), "DEEPSEEK_API_KEY=sk-never-leaks\n");
    await assert.rejects(Deno.stat(join(ws, "stolen")), Deno.errors.NotFound);
    await assert.rejects(Deno.stat(join(ws, ".git/hooks/pre-commit")), Deno.errors.NotFound);
  } finally {
    await sim.close();
    await removeAll(ws);
  }
});
