/**
 * Credentials through the real CLI: even with the Reasonix home added as a writable root, the file
 * tools treat `<home>/.env` as missing, bash cannot read it, and bash's environment has no key.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

Deno.test("reasonix run keeps <home>/.env and the provider key away from every tool", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url, apiKey: "sk-never-leaks" });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  const envFile = join(home, ".env");
  const calls = [
    { name: "read_file", arguments: JSON.stringify({ path: envFile }) },
    { name: "grep", arguments: JSON.stringify({ pattern: "sk-", path: home }) },
    { name: "bash", arguments: JSON.stringify({ command: `cat ${envFile}; env; echo "tmp=$TMPDIR"` }) },
  ];
  sim.push(...calls.map((call) => ({ toolCalls: [call] })), { content: "done" });
  try {
    const run = await runCli(
      ["run", "--yolo", "--add-dir", home, "--output-format", "json", "look for keys"],
      { home, cwd: ws },
    );
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const results = sim.requests.at(-1)!.json.messages
      .filter((m: { role: string }) => m.role === "tool")
      .map((m: { content: string }) => m.content);
    assert.equal(results.length, 3);
    for (const result of results) assert.doesNotMatch(result, /sk-never-leaks|DEEPSEEK_API_KEY/);
    assert.match(results[0], /no such file or directory/);
    assert.doesNotMatch(results[1], /\.env:/);
    assert.doesNotMatch(results[2], /REASONIX_FENCED/);
    assert.match(results[2], /tmp=\/tmp/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
