import assert from "node:assert/strict";
import { DeepSeekSim } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

const SECRET = "sk-live-0123456789abcdef0123";

Deno.test("reasonix session list|show|status describe the workspace's sessions, redacted", async () => {
  const sim = await DeepSeekSim.start({
    script: [
      { reasoning: "Look first.", toolCalls: [{ name: "read_file", arguments: `{"path":"README.md"}` }] },
      { reasoning: "Done thinking.", content: `The key is ${SECRET}.` },
    ],
  });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "README.md": `token: ${SECRET}\n` });
  const cli = (...args: string[]) => runCli(args, { home, cwd: ws });
  try {
    assert.equal((await cli("run", "read the readme")).code, 0);
    const list = await cli("session", "list", "--json");
    assert.equal(list.code, 0, list.stderr);
    const { command, sessions } = JSON.parse(list.stdout);
    assert.equal(command, "session.list");
    assert.equal(sessions.length, 1);
    assert.equal(sessions[0].turns, 1);
    assert.equal(sessions[0].workspace, ws);
    assert.equal(sessions[0].firstMessage, "read the readme");
    assert.equal(sessions[0].lastModel, "deepseek-flash");
    assert.ok(sessions[0].cost > 0);
    const text = await cli("session", "list");
    assert.match(text.stdout, new RegExp(`^${sessions[0].id} .* 1  ¥.*read the readme$`, "m"));

    const show = await cli("session", "show", "latest");
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /^> read the readme$/m);
    assert.match(show.stdout, /-> read_file \{"path":"README.md"\}/);
    assert.match(show.stdout, /The key is \[redacted\]\./);
    assert.ok(!show.stdout.includes(SECRET), "no secret in the transcript");
    assert.ok(!show.stdout.includes("Look first."), "no reasoning by default");
    const withReasoning = await cli("session", "show", sessions[0].id.slice(0, 17), "--reasoning", "--json");
    const shown = JSON.parse(withReasoning.stdout);
    assert.equal(shown.messages.find((m: { reasoning?: string }) => m.reasoning)?.reasoning, "Look first.");
    assert.ok(!withReasoning.stdout.includes(SECRET));

    const status = JSON.parse((await cli("session", "status", "--json")).stdout).session;
    assert.deepEqual([status.id, status.turns, status.lastTurn, status.inUseBy], [
      sessions[0].id,
      1,
      "answered",
      null,
    ]);
    const other = await makeWorkspace({});
    try {
      const empty = await runCli(["session", "list"], { home, cwd: other });
      assert.match(empty.stdout, /No sessions for this workspace yet/);
      const dir = await runCli(["session", "list", "--json", "--dir", ws], { home, cwd: other });
      assert.equal(JSON.parse(dir.stdout).sessions.length, 1);
    } finally {
      await removeAll(other);
    }
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
