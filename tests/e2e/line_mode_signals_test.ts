/**
 * @module
 * `reasonix` in line mode (stdout not a terminal) on SIGTERM mid-tool, with stdin still open: the turn
 * ends as Ctrl+C ends it, no more lines are read, the bash call's `sleep` is gone, the exit status is
 * 143 and `reasonix run -c` continues the session with every tool call answered.
 */
import assert from "node:assert/strict";
import { cliCommand, makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { eventually, sleepers, sleepTag } from "../support/processes.ts";

Deno.test("line mode: SIGTERM mid-tool ends the turn, reads no more, exits 143, run -c continues", async () => {
  const tag = sleepTag();
  const sleep = { name: "bash", arguments: JSON.stringify({ command: `sleep 30.${tag}` }) };
  const sim = await DeepSeekSim.start({ script: [{ toolCalls: [sleep] }, { content: "Continued." }] });
  const home = await makeHome({ simUrl: sim.url, extraToml: "[sandbox]\nbash = false\n" });
  const ws = await makeWorkspace({ "README.md": "fixture\n" });
  try {
    const child = cliCommand(["--yolo"], { home, cwd: ws, stdin: "" }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode("sleep now\nthis line must not become a turn\n"));
    assert.ok(await eventually(() => sleepers(tag).length === 1, 20_000), "the sleep runs");
    child.kill("SIGTERM");
    const out = await child.output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 143, stdout + new TextDecoder().decode(out.stderr));
    assert.match(stdout, /Interrupted by SIGTERM/);
    assert.ok(await eventually(() => sleepers(tag).length === 0, 5_000), `sleeps left: ${sleepers(tag)}`);
    assert.equal(sim.requests.length, 1, "the second line never reached the model");
    const [file] = await sessionFiles(home);
    const records = (await Deno.readTextFile(file!)).trim().split("\n").map((line) => JSON.parse(line));
    assert.ok(records.some((r) => r.type === "message" && r.message.role === "tool"), "the call's result");
    const resumed = await runCli(["run", "-c", "go on"], { home, cwd: ws });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.match(resumed.stdout, /Continued\./);
    assert.equal(sim.requests.at(-1)!.status, 200);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
