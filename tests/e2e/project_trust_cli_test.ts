/**
 * A cloned repository through the real CLI: its reasonix.toml cannot switch `reasonix run` to writing
 * without a flag until `reasonix trust` approves those exact bytes, and an AGENTS.md symlinked to the
 * Reasonix home's .env never puts the key into the system prompt or the stored session.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";

const WRITE = { toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi"}` }] };

function lastToolResult(sim: DeepSeekSim): string {
  return sim.requests.at(-1)!.json.messages.at(-1).content;
}

Deno.test("reasonix run ignores a project's mode = auto until `reasonix trust --yes`, and again after an edit", async () => {
  const sim = await DeepSeekSim.start({ script: [] });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "reasonix.toml": `[permissions]\nmode = "auto"\n` });
  const file = join(ws, "reasonix.toml");
  try {
    sim.push(WRITE, { content: "done" });
    const refused = await runCli(["run", "write x.txt"], { home, cwd: ws });
    assert.equal(refused.code, 0, refused.stderr);
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    assert.match(lastToolResult(sim), /^Error \[permission\.needs_approval\]/);
    assert.match(refused.stderr, new RegExp(`${file}:2:1: "permissions\\.mode" .*run \`reasonix trust\``));

    const show = await runCli(["trust", "--show"], { home, cwd: ws });
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /Status: not trusted\n/);
    assert.match(show.stdout, /permissions\.mode \(line 2\)/);
    const unasked = await runCli(["trust"], { home, cwd: ws });
    assert.equal(unasked.code, 2);
    assert.match(unasked.stderr, /stdin is not a terminal/);
    assert.match(unasked.stderr, /reasonix trust --yes/);

    const trusted = await runCli(["trust", "--yes"], { home, cwd: ws });
    assert.equal(trusted.code, 0, trusted.stderr);
    const stored = JSON.parse(await Deno.readTextFile(join(home, "trust.json")));
    assert.equal(typeof stored.projectConfigs[ws].sha256, "string");
    assert.equal((await Deno.stat(join(home, "trust.json"))).mode! & 0o777, 0o600);
    sim.push(WRITE, { content: "done" });
    const allowed = await runCli(["run", "write x.txt"], { home, cwd: ws });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(await Deno.readTextFile(join(ws, "x.txt")), "hi");
    assert.doesNotMatch(allowed.stderr, /reasonix trust/);

    await Deno.remove(join(ws, "x.txt"));
    await Deno.writeTextFile(file, `[permissions]\nmode = "auto"\n# edited\n`);
    sim.push(WRITE, { content: "done" });
    const edited = await runCli(["run", "write x.txt"], { home, cwd: ws });
    await assert.rejects(Deno.stat(join(ws, "x.txt")), Deno.errors.NotFound);
    assert.match(
      edited.stderr,
      /reasonix\.toml changed since you trusted it; run `reasonix trust` to review/,
    );
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix run never loads an AGENTS.md that is a symlink to <home>/.env", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "hello" }] });
  const home = await makeHome({ simUrl: sim.url, apiKey: "sk-MOCK-KEY-never-in-prompt" });
  const ws = await makeWorkspace({ "CLAUDE.md": "Use tabs.\n" });
  await Deno.symlink(join(home, ".env"), join(ws, "AGENTS.md"));
  try {
    const run = await runCli(["run", "hi"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    const system = sim.requests[0]!.json.messages[0].content;
    assert.match(system, /Use tabs\./);
    assert.doesNotMatch(system, /sk-MOCK-KEY|DEEPSEEK_API_KEY/);
    const sessions = await sessionFiles(home);
    assert.equal(sessions.length, 1);
    assert.doesNotMatch(await Deno.readTextFile(sessions[0]!), /sk-MOCK-KEY|DEEPSEEK_API_KEY/);
    assert.match(
      run.stderr,
      new RegExp(`Cannot load "${join(ws, "AGENTS.md")}" \\(it points to ".*\\.env"\\)`),
    );
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
