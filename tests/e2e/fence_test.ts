/**
 * The Deno fence under the real CLI: a tool whose own path check is broken still cannot write outside
 * the workspace, because the re-run kernel lacks the Deno permission; the model gets a tool error.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { cliEnv, makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { withTui } from "../support/tui.ts";

const ENTRY = resolve(import.meta.dirname!, "fixtures/fence_entry.ts");

async function runBuggyWrite(target: string, env: Record<string, string> = {}) {
  const sim = await DeepSeekSim.start({
    script: [
      {
        toolCalls: [{ name: "buggy_write", arguments: JSON.stringify({ path: target, content: "escaped" }) }],
      },
      { content: "done" },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "-A", ENTRY, "run", "--yolo", "--output-format", "json", "write it"],
      cwd: ws,
      env: cliEnv(home, env),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr) + stdout);
    const tool = sim.requests.at(-1)!.json.messages.find((m: { role: string }) => m.role === "tool");
    return String(tool.content);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

Deno.test("the Deno fence stops a write that slipped past the tool's own path check", async () => {
  const outside = await Deno.makeTempDir({ prefix: "reasonix-outside-" });
  try {
    const target = join(outside, "escaped.txt");
    const result = await runBuggyWrite(target);
    assert.match(result, /^Error \[tool\.fenced\]: /);
    assert.match(result, /NotCapable/);
    assert.ok(result.includes(target), result);
    await assert.rejects(Deno.stat(target), Deno.errors.NotFound);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("without the fence (REASONIX_NO_FENCE=1) the same bug does write outside", async () => {
  const outside = await Deno.makeTempDir({ prefix: "reasonix-outside-" });
  try {
    const target = join(outside, "escaped.txt");
    const result = await runBuggyWrite(target, { REASONIX_NO_FENCE: "1" });
    assert.equal(result, `wrote ${target}`);
    assert.equal(await Deno.readTextFile(target), "escaped");
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("the interactive TUI runs under the same fence: the buggy write fails as tool.fenced", async () => {
  const outside = await Deno.makeTempDir({ prefix: "reasonix-outside-" });
  const target = join(outside, "escaped.txt");
  const call = { name: "buggy_write", arguments: JSON.stringify({ path: target, content: "escaped" }) };
  try {
    await withTui([{ toolCalls: [call] }, { content: "finished the write" }], async ({ pane, sim }) => {
      await pane.type("write it");
      await pane.keys("Enter");
      await pane.waitFor(/finished the write/);
      const tool = sim.requests.at(-1)!.json.messages.find((m: { role: string }) => m.role === "tool");
      assert.match(String(tool.content), /^Error \[tool\.fenced\]: .*NotCapable/s);
    }, { entry: ENTRY, args: ["--yolo"] });
    await assert.rejects(Deno.stat(target), Deno.errors.NotFound);
  } finally {
    await Deno.remove(outside, { recursive: true });
  }
});
