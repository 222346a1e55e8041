import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { cliEnv, MAIN_TS, makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";

const TIME = "/usr/bin/time";
const MIB = 1024 * 1024;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("run refuses a 50 MB task on stdin without reading it all: exit 2, a clear message, modest memory", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "never asked" }] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  const timeFile = join(home, "time.txt");
  try {
    const measured = await exists(TIME);
    const argv = [Deno.execPath(), "run", "--no-prompt", "-A", MAIN_TS, "run", "--output-format", "json"];
    const command = measured ? [TIME, "-o", timeFile, "-f", "%M", ...argv] : argv;
    const child = new Deno.Command(command[0]!, {
      args: command.slice(1),
      cwd: ws,
      env: cliEnv(home),
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    const chunk = new TextEncoder().encode("lorem ipsum ".repeat(MIB / 12));
    let accepted = 0;
    try {
      while (accepted < 50 * MIB) {
        await writer.write(chunk);
        accepted += chunk.byteLength;
      }
      await writer.close();
    } catch (error) {
      // The reader left: it stopped at its cap and exited.
      assert.ok(error instanceof Deno.errors.BrokenPipe, String(error));
    }
    const out = await child.output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 2, stderr);
    // Under --output-format json the failure is the JSON result on stdout (one error policy).
    const result = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(result.error.code, "usage.task_too_large");
    assert.match(result.error.message, /Cannot send the task: standard input holds more than 8 MiB/);
    assert.match(result.error.hint, /file/);
    assert.ok(accepted < 12 * MIB, `the writer got ${accepted} bytes in`);
    assert.equal(sim.requests.length, 0);
    if (measured) {
      const maxRssKb = Number((await Deno.readTextFile(timeFile)).trim().split("\n").at(-1));
      // Sending it whole peaked at 920 MB; a plain `reasonix run` peaks near 100 MB.
      assert.ok(maxRssKb < 250 * 1024, `peak RSS ${maxRssKb} KB`);
    }
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("run refuses a task that cannot fit the model's context window, from stdin or the arguments", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "fits" }] });
  const home = await makeHome({ simUrl: sim.url, extraToml: "context_window = 1000\n" });
  const ws = await makeWorkspace({});
  try {
    const large = "x".repeat(10_000);
    for (
      const run of [
        await runCli(["run", "--output-format", "json"], { home, cwd: ws, stdin: large }),
        await runCli(["run", "--output-format", "json", large], { home, cwd: ws }),
      ]
    ) {
      assert.equal(run.code, 2, run.stderr);
      const result = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
      assert.equal(result.error.code, "usage.task_too_large");
      assert.match(result.result, /at least 1,667 tokens, and the model's context window is 1,000 tokens/);
    }
    assert.equal(sim.requests.length, 0);
    assert.deepEqual(await sessionFiles(home), [], "a refused task leaves no session");
    // 6 bytes a token is a lower bound: a task that might fit is sent.
    const fits = await runCli(["run", "--output-format", "json", "y".repeat(5_000)], { home, cwd: ws });
    assert.equal(fits.code, 0, fits.stderr);
    assert.equal(sim.requests.length, 1);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
