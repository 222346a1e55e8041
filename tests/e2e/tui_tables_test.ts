import assert from "node:assert/strict";
import { withTui } from "../support/tui.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";
import { DeepSeekSim } from "../support/deepseek_sim.ts";

/** Where a /sandbox row starts; any other line continues the value above, under its column. */
const KEY = /^(Backend|Network|Writable|Hidden|Read-only|Temp dir|Warning): +\S/;

/** The lines of one command's answer: from its first line to the next notice or the input box. */
function block(screen: string, first: RegExp): string[] {
  const lines = screen.split("\n");
  const start = lines.findIndex((line) => first.test(line));
  assert.ok(start >= 0, `no ${first} on screen:\n${screen}`);
  const end = lines.findIndex((line, at) => at > start && /^(ℹ|┌)/.test(line));
  return lines.slice(start, end);
}

Deno.test("tui tables: /sandbox and /status wrap long values under their own column at the pane's width", async () => {
  await withTui([], async ({ pane }) => {
    await pane.type("/sandbox");
    await pane.keys("Enter");
    const sandbox = block(await pane.waitFor(/Temp dir:/), /^ℹ Backend:/);
    const column = "ℹ Read-only:  ".length;
    assert.ok(sandbox.length > 8, "the hidden paths wrap onto several lines");
    for (const line of sandbox) {
      assert.ok(line.length <= 70, `within the pane: ${line}`);
      assert.notEqual(line[column], " ", `the value column starts at ${column}: ${JSON.stringify(line)}`);
      assert.ok(
        KEY.test(line.slice(2)) || line.startsWith(" ".repeat(column)),
        `a row or its value: ${line}`,
      );
    }
    await pane.type("/status");
    await pane.keys("Enter");
    const status = block(await pane.waitFor(/Turns: +0, model calls 0/), /^ℹ Model:/);
    const keys = status.filter((line) => /^(ℹ | {2})\S/.test(line)).map((line) =>
      line.slice(2).split(":")[0]
    );
    assert.deepEqual(keys, ["Model", "Session", "File", "Permissions", "Turns"]);
    const file = status.findIndex((line) => line.startsWith("  File:"));
    assert.ok(
      status[file + 1]!.startsWith(" ".repeat("ℹ Permissions:  ".length)),
      "the long path wraps under its column",
    );
  }, { size: [70, 60] });
});

Deno.test("tui tables: /model with an unknown name says it is unknown and lists the known models", async () => {
  await withTui([], async ({ pane, sim }) => {
    await pane.type("/model nonsense");
    await pane.keys("Enter");
    const screen = await pane.waitFor(/in config\.toml/);
    assert.match(
      screen,
      /Cannot switch to model "nonsense": no configured provider lists it\n {2}Known models: deepseek-flash\/deepseek-flash, deepseek-pro\/deepseek-v4-pro\n/,
    );
    assert.ok(!screen.includes("Cannot switch sessions"), screen);
    assert.match(screen, /^deepseek-flash · ask/m, "the model is unchanged");
    assert.equal(sim.requests.length, 0);
  }, { size: [120, 30] });
});

Deno.test("reasonix run /sandbox with stdout piped prints the table at 80 columns, wrapped under its column", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({});
  try {
    const run = await runCli(["run", "/sandbox"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    const column = "Read-only:  ".length;
    assert.ok(lines.length > 6, run.stdout);
    for (const line of lines) {
      assert.ok(line.length <= 80, `within 80 columns: ${line}`);
      assert.ok(KEY.test(line) || line.startsWith(" ".repeat(column)) && line[column] !== " ", line);
    }
    assert.equal(sim.requests.length, 0);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run /sandbox on a terminal lays the table out for the terminal's width", async () => {
  await withTui([], async ({ pane }) => {
    const screen = await pane.waitFor(/TUI-EXIT=0/);
    const lines = screen.slice(0, screen.indexOf("TUI-EXIT")).trimEnd().split("\n");
    const column = "Read-only:  ".length;
    assert.ok(lines.length > 10, screen);
    for (const line of lines) {
      assert.ok(KEY.test(line) || line.startsWith(" ".repeat(column)) && line[column] !== " ", line);
    }
  }, { size: [60, 50], args: ["run", "/sandbox"], ready: /TUI-EXIT/ });
});
