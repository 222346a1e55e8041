/**
 * The Deno fence under the real CLI: a tool whose own path check is broken still cannot write outside
 * the workspace, because the re-run kernel lacks the Deno permission; the model gets a tool error.
 */
import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { cliEnv, makeHome, makeWorkspace, removeAll } from "../support/cli.ts";
import { withTui } from "../support/tui.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { fenceFlags } from "../../src/control/fence.ts";

const ENTRY = resolve(import.meta.dirname!, "fixtures/fence_entry.ts");
const WRITES = resolve(import.meta.dirname!, "fixtures/fenced_writes.ts");

/** `target` may name a file in the fresh Reasonix home, which exists only inside the run. */
async function runBuggyWrite(
  target: string | ((home: string) => string),
  env: Record<string, string> = {},
  check?: (home: string) => Promise<void>,
) {
  const home = await makeHome({ simUrl: "http://127.0.0.1:1" });
  const path = typeof target === "string" ? target : target(home);
  const sim = await DeepSeekSim.start({
    script: [
      {
        toolCalls: [{ name: "buggy_write", arguments: JSON.stringify({ path, content: "escaped" }) }],
      },
      { content: "done" },
    ],
  });
  const config = join(home, "config.toml");
  await Deno.writeTextFile(
    config,
    (await Deno.readTextFile(config)).replaceAll("http://127.0.0.1:1", sim.url),
  );
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
    await check?.(home);
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

Deno.test("the fence keeps the kernel from writing its own config.toml; the session is still written", async () => {
  const result = await runBuggyWrite((home) => join(home, "config.toml"), {}, async (home) => {
    const config = await Deno.readTextFile(join(home, "config.toml"));
    assert.ok(!config.includes("escaped") && config.includes("deepseek-flash"), config);
    const sessions = await Array.fromAsync(Deno.readDir(join(home, "sessions")));
    assert.ok(sessions.length > 0, "no session was written under the narrowed grants");
  });
  assert.match(result, /^Error \[tool\.fenced\]: .*NotCapable/s);
  assert.ok(result.includes("config.toml"), result);
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

Deno.test("under the fence's flags setup's .env, Always allow's trust.json and temp dirs work; config.toml does not", async () => {
  const home = await makeHome({ simUrl: "http://127.0.0.1:1" });
  const ws = await makeWorkspace({ "a.txt": "alpha\n" });
  try {
    const paths = resolvePaths({ REASONIX_HOME: home });
    const flags = await fenceFlags({
      cwd: ws,
      addDirs: [],
      outputs: [],
      env: { PATH: Deno.env.get("PATH") ?? "" },
      paths,
    });
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, WRITES, home, ws],
      cwd: ws,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr) + text);
    assert.deepEqual(JSON.parse(text), {
      env: "ok",
      grant: "ok",
      pairing: "ok",
      temp: "ok",
      memory: "ok",
      configAtomic: "NotCapable",
      configPlain: "NotCapable",
      homeFile: "NotCapable",
    });
    assert.match(await Deno.readTextFile(join(home, ".env")), /^DEEPSEEK_API_KEY=sk-fenced$/m);
    const trust = JSON.parse(await Deno.readTextFile(join(home, "trust.json")));
    assert.deepEqual(trust.permissionGrants[ws].map((g: { rule: string }) => g.rule), ["Bash(ls:*)"]);
    assert.ok(!(await Deno.readTextFile(join(home, "config.toml"))).includes("x = 1"));
    assert.deepEqual(await Array.fromAsync(Deno.readDir(join(home, ".staging"))), []);
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("the TUI's Always allow stores its grant in trust.json under the fence", async () => {
  const args = JSON.stringify({ path: "granted.txt", content: "yes\n" });
  await withTui(
    [{ toolCalls: [{ name: "write_file", arguments: args }] }, { content: "Written for good." }],
    async ({ pane, home, workspace }) => {
      await pane.type("write it");
      await pane.keys("Enter");
      await pane.waitFor(/›1 Allow once/);
      await pane.keys("Right");
      await pane.keys("Right");
      await pane.waitFor(/›3 Always allow/);
      await pane.keys("Enter");
      await pane.waitFor(/Written for good\./);
      assert.equal(await Deno.readTextFile(join(workspace, "granted.txt")), "yes\n");
      const trust = JSON.parse(await Deno.readTextFile(join(home, "trust.json")));
      assert.equal(Object.values(trust.permissionGrants ?? {}).flat().length, 1, JSON.stringify(trust));
    },
  );
});
