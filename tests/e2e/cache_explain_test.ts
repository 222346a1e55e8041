import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("reasonix cache explain shows intact prefixes and the tool schema change that broke one", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { toolCalls: [{ name: "ls", arguments: `{}` }] },
      { content: "listed" },
      { content: "second turn" },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "a\n" });
  try {
    assert.equal((await runCli(["run", "list files"], { home, cwd: ws })).code, 0);
    await Deno.writeTextFile(join(ws, "reasonix.toml"), `[tools]\nenabled = ["ls", "read_file"]\n`);
    assert.equal((await runCli(["run", "-c", "again"], { home, cwd: ws })).code, 0);
    const text = await runCli(["cache", "explain"], { home, cwd: ws });
    assert.equal(text.code, 0, text.stderr);
    const lines = text.stdout.trim().split("\n");
    assert.match(lines[1]!, /^#1 .*first request/);
    assert.match(lines[2]!, /^#2 .*hit [1-9]\d* .*prefix intact/);
    assert.match(lines[3]!, /^#3 .*miss began in tool schema of /);
    const json = JSON.parse((await runCli(["cache", "explain", "--json"], { home, cwd: ws })).stdout);
    assert.equal(json.rows.length, 3);
    assert.equal(json.rows[2].verdict.kind, "changed");
    assert.equal(json.rows[1].hitTokens, sim.requests[1]!.usage!.prompt_cache_hit_tokens);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
