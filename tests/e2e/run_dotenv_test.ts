import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

/** A run against the simulator (a loopback URL) with `dotenv` as the home's `.env`. */
async function runWithDotenv(dotenv: string, script: ScriptedReply[] = []) {
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "README.md": "# fixture\n" });
  const envFile = join(home, ".env");
  try {
    await Deno.writeTextFile(envFile, dotenv);
    const run = await runCli(["run", "say ok"], { home, cwd: ws });
    return { ...run, requests: sim.requests, envFile };
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("run with an empty key in .env says it is not set and sends nothing", async () => {
  const run = await runWithDotenv("DEEPSEEK_API_KEY=\n");
  assert.equal(run.code, 1, run.stdout + run.stderr);
  assert.match(run.stdout + run.stderr, /"DEEPSEEK_API_KEY" is not set/);
  assert.equal(run.requests.length, 0);
});

Deno.test("run with a control byte in the key names the variable and line, not the value, and sends nothing", async () => {
  const run = await runWithDotenv('# key\nDEEPSEEK_API_KEY="sk-private\\r\\nX: 1"\n');
  const printed = run.stdout + run.stderr;
  assert.equal(run.code, 2, printed);
  assert.match(
    printed,
    /Cannot use DEEPSEEK_API_KEY from \S+\.env:2: its value contains a control character/,
  );
  assert.doesNotMatch(printed, /sk-private/);
  assert.doesNotMatch(printed, /network/i);
  assert.equal(run.requests.length, 0);
});

Deno.test("run warns once about a malformed .env line, with file:line, however many requests it makes", async () => {
  const run = await runWithDotenv("DEEPSEEK_API_KEY=sk-sim-test\nsk-pasted-alone\n", [
    { toolCalls: [{ name: "ls", arguments: "{}" }] },
    { content: "ok" },
  ]);
  assert.equal(run.code, 0, run.stdout + run.stderr);
  assert.equal(run.requests.length, 2);
  const warnings = run.stderr.split("\n").filter((line) => line.includes(".env"));
  assert.deepEqual(warnings, [`warning: ${run.envFile}:2: skipped: expected NAME=value`]);
  assert.doesNotMatch(run.stdout + run.stderr, /sk-pasted-alone/);
});
