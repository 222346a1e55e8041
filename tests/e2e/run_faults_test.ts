import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { cliCommand, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { loadSession } from "../../src/session/store.ts";
import { withSimHome } from "../support/sim_home.ts";

function json(stdout: string) {
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

async function onlySession(home: string) {
  const files = await sessionFiles(home);
  assert.equal(files.length, 1);
  return await loadSession(files[0]!);
}

Deno.test("run retries a 429 with Retry-After, then succeeds", async () => {
  await withSimHome([
    { fault: { kind: "status", status: 429, retryAfterSeconds: 1 } },
    { content: "ok" },
  ], async ({ sim, home, ws }) => {
    const run = await runCli(["run", "--output-format", "stream-json", "say ok"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
    const retry = lines.find((l) => l.type === "retrying");
    assert.ok(retry, "a retrying event is streamed");
    assert.ok(retry.delayMs >= 1000, "Retry-After is honoured");
    assert.equal(lines.at(-1).result, "ok");
    assert.equal(sim.requests.length, 2);
    assert.equal(sim.requests[0]!.body, sim.requests[1]!.body);
  });
});

Deno.test("run retries 500s, then gives up with a clear message and the session intact", async () => {
  const fault: ScriptedReply = { fault: { kind: "status", status: 500 } };
  await withSimHome([fault, fault, fault, fault], async ({ sim, home, ws }) => {
    const run = await runCli(["run", "--output-format", "json", "say ok"], { home, cwd: ws });
    assert.equal(run.code, 3, "provider unavailable has its own exit code");
    const result = json(run.stdout);
    assert.equal(result.is_error, true);
    assert.equal(result.subtype, "error_during_execution");
    assert.equal(result.error.code, "provider.server");
    assert.match(result.result, /500 after 4 attempts/);
    assert.equal(sim.requests.length, 4);
    const session = await onlySession(home);
    assert.equal(session.tornTail, false);
    const roles = session.messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user", "user", "assistant"]);
    assert.equal(session.messages[2]!.content, "say ok");
  });
});

Deno.test("run discards a truncated stream and uses the retried answer", async () => {
  await withSimHome([
    { content: "partial answer that will be cut", chunkSize: 4, fault: { kind: "truncate", afterChunks: 3 } },
    { content: "complete answer" },
  ], async ({ home, ws }) => {
    const run = await runCli(["run", "--output-format", "json", "answer"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(json(run.stdout).result, "complete answer");
    const session = await onlySession(home);
    assert.equal(session.messages.at(-1)!.content, "complete answer");
  });
});

Deno.test("run sends bad tool JSON and unknown tools back to the model as tool errors", async () => {
  await withSimHome([
    {
      toolCalls: [
        { name: "read_file", arguments: `{"path": "README.md"` },
        { name: "teleport", arguments: `{}` },
        { name: "read_file", arguments: `{"path": 7}` },
      ],
    },
    { content: "recovered" },
  ], async ({ sim, home, ws }) => {
    const run = await runCli(["run", "--output-format", "json", "read it"], { home, cwd: ws });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(json(run.stdout).result, "recovered");
    const tools = sim.requests[1]!.json.messages.filter((m: { role: string }) => m.role === "tool");
    assert.match(tools[0].content, /^Error \[tool\.invalid_json\]/);
    assert.match(tools[1].content, /^Error \[tool\.unknown\][\s\S]*read_file/);
    assert.match(tools[2].content, /^Error \[tool\.invalid_args\][\s\S]*path/);
  });
});

Deno.test("Ctrl+C mid-stream cancels the request and leaves a valid session", async () => {
  await withSimHome([{ fault: { kind: "hang" } }], async ({ sim, home, ws }) => {
    const child = cliCommand(["run", "--output-format", "json", "think long"], { home, cwd: ws }).spawn();
    while (sim.requests.length === 0) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGINT");
    const out = await child.output();
    assert.equal(out.code, 130);
    const result = json(new TextDecoder().decode(out.stdout));
    assert.equal(result.error.code, "turn.interrupted");
    const session = await onlySession(home);
    assert.equal(session.tornTail, false);
    assert.equal(session.messages.at(-1)!.role, "assistant");
    assert.match(String(session.messages.at(-1)!.content), /Interrupted by the user/);
  });
});

Deno.test("run reports malformed config with file, line and column", async () => {
  await withSimHome([], async ({ sim, home, ws }) => {
    await Deno.writeTextFile(join(ws, "reasonix.toml"), `[tools]\nbash_timeout_seconds = = 3\n`);
    const run = await runCli(["run", "--output-format", "json", "hi"], { home, cwd: ws });
    assert.equal(run.code, 2);
    const result = json(run.stdout);
    assert.equal(result.error.code, "config.parse");
    assert.match(result.result, /reasonix\.toml:2:\d+: /);
    assert.equal(result.num_turns, 0);
    assert.equal(sim.requests.length, 0);
  });
});

Deno.test("run names the variable to set when no API key is configured", async () => {
  const home = await Deno.makeTempDir();
  const ws = await makeWorkspace({});
  try {
    const run = await runCli(["run", "hi"], { home, cwd: ws });
    assert.equal(run.code, 1);
    assert.match(run.stderr, /DEEPSEEK_API_KEY/);
  } finally {
    await removeAll(home, ws);
  }
});

Deno.test("run maps --effort onto DeepSeek's thinking fields", async () => {
  await withSimHome([{ content: "a" }, { content: "b" }], async ({ sim, home, ws }) => {
    assert.equal((await runCli(["run", "--effort", "max", "x"], { home, cwd: ws })).code, 0);
    assert.equal((await runCli(["run", "--effort", "disabled", "x"], { home, cwd: ws })).code, 0);
    assert.equal(sim.requests[0]!.json.reasoning_effort, "max");
    assert.deepEqual(sim.requests[0]!.json.thinking, { type: "enabled" });
    assert.deepEqual(sim.requests[1]!.json.thinking, { type: "disabled" });
    assert.equal("reasoning_effort" in sim.requests[1]!.json, false);
  });
});
