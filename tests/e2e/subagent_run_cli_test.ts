/**
 * `reasonix subagent try|run` end to end: the real CLI in a child process against the simulator. The
 * profile runs as a child of a headless session (its body the child's system prompt); `try` refuses every
 * writer, `run` writes under the session's policy and `--json` prints the outcome; a failed child exits
 * non-zero; an unknown profile is a clear error.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll, runCli } from "../support/cli.ts";

const PROFILE = "---\nname: fixer\ndescription: Fixes small things\nrunAs: subagent\n---\n" +
  "You are the fixer profile. Change what the task asks.\n";

type Message = { role: string; content: string };

function write(content: string): ScriptedReply {
  return {
    reasoning: "write",
    toolCalls: [{ name: "write_file", arguments: JSON.stringify({ path: "app.ts", content }) }],
  };
}

async function setup(script: ScriptedReply[], extraToml = '[permissions]\nmode = "yolo"\n') {
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url, extraToml });
  const ws = await makeWorkspace({ "app.ts": "old\n", ".reasonix/skills/fixer/SKILL.md": PROFILE });
  return { sim, home, ws };
}

Deno.test("reasonix subagent try: the profile runs read-only, its write refused, its answer printed", async () => {
  const { sim, home, ws } = await setup([write("new\n"), { content: "I would change app.ts to say new." }]);
  try {
    const result = await runCli(["subagent", "try", "fixer", "make", "app.ts", "say", "new"], {
      home,
      cwd: ws,
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim(), "I would change app.ts to say new.");
    assert.equal(await Deno.readTextFile(join(ws, "app.ts")), "old\n", "nothing was written");
    const first = sim.requests[0]!.json.messages as Message[];
    assert.match(first[0]!.content, /You are the fixer profile\./, "the profile body is the system prompt");
    assert.equal(first.at(-1)!.content, "make app.ts say new");
    const tool = (sim.requests[1]!.json.messages as Message[]).find((m) => m.role === "tool")!;
    assert.match(tool.content, /no tool named "write_file"/, "a read-only child has no writer tool");
    assert.ok(!JSON.stringify(sim.requests[0]!.json.tools).includes('"write_file"'));
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix subagent run --json: the profile writes under the session's policy; the outcome as JSON", async () => {
  const { sim, home, ws } = await setup([write("new\n"), { content: "Changed app.ts." }]);
  try {
    const result = await runCli(["subagent", "run", "fixer", "--json", "make app.ts say new"], {
      home,
      cwd: ws,
    });
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout.trim());
    assert.equal(json.command, "subagent.run");
    assert.equal(json.ok, true);
    assert.equal(json.result, "Changed app.ts.");
    assert.match(json.ref, /\S/);
    assert.match(json.session_id, /\S/);
    assert.equal(await Deno.readTextFile(join(ws, "app.ts")), "new\n");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix subagent run: a failed child exits non-zero; an unknown profile is an error", async () => {
  const fault = { kind: "status" as const, status: 400, message: "bad request" };
  const { sim, home, ws } = await setup([{ content: "x", fault }]);
  try {
    const failed = await runCli(["subagent", "run", "fixer", "do it"], { home, cwd: ws });
    assert.notEqual(failed.code, 0);
    assert.equal(failed.stdout.trim(), "");
    assert.match(failed.stderr, /Subagent "fixer" failed/);
    const unknown = await runCli(["subagent", "run", "nobody", "do it"], { home, cwd: ws });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no subagent profile "nobody"[^]*reasonix subagent list/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});

Deno.test("reasonix subagent run --permission-mode: auto lets the child write where ask refuses; a bad mode is a usage error", async () => {
  const script = [write("new\n"), { content: "Tried." }, write("new\n"), { content: "Changed app.ts." }];
  const { sim, home, ws } = await setup(script, "");
  try {
    const asked = await runCli(["subagent", "run", "fixer", "make app.ts say new"], { home, cwd: ws });
    assert.equal(asked.code, 0, asked.stderr);
    assert.equal(
      await Deno.readTextFile(join(ws, "app.ts")),
      "old\n",
      "ask mode: headless, the write is refused",
    );
    const auto = await runCli([
      "subagent",
      "run",
      "fixer",
      "--permission-mode",
      "auto",
      "make app.ts say new",
    ], {
      home,
      cwd: ws,
    });
    assert.equal(auto.code, 0, auto.stderr);
    assert.equal(auto.stdout.trim(), "Changed app.ts.");
    assert.equal(await Deno.readTextFile(join(ws, "app.ts")), "new\n");
    const bad = await runCli(["subagent", "run", "fixer", "--permission-mode", "sometimes", "x"], {
      home,
      cwd: ws,
    });
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--permission-mode/);
    assert.equal(sim.requests.length, 4, "the bad mode started nothing");
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
