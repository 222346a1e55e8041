import assert from "node:assert/strict";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { cliCommand, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { loadSession } from "../../src/session/store.ts";
import { type SimHome, withSimHome } from "../support/sim_home.ts";

function result(stdout: string) {
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function sessionText(home: string): Promise<string> {
  const files = await sessionFiles(home);
  return files.length === 1 ? await Deno.readTextFile(files[0]!) : "";
}

/** A run in its own process group; `kill` reaches the fenced child too. */
function spawnRun(args: string[], ctx: SimHome) {
  const child = cliCommand(["run", ...args], { home: ctx.home, cwd: ctx.ws, detached: true }).spawn();
  return {
    child,
    kill(signal: Deno.Signal) {
      try {
        Deno.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    },
  };
}

const THINK_AND_CALL = (command: string): ScriptedReply => ({
  reasoning: "I will run it.",
  toolCalls: [{ name: "bash", arguments: JSON.stringify({ command }) }],
});

async function continueWorks(ctx: SimHome, answer: string): Promise<unknown[]> {
  ctx.sim.push({ content: answer });
  const before = ctx.sim.requests.length;
  const run = await runCli(["run", "-c", "--output-format", "json", "go on"], {
    home: ctx.home,
    cwd: ctx.ws,
  });
  assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  assert.equal(result(run.stdout).result, answer);
  const request = ctx.sim.requests.at(-1)!;
  assert.equal(ctx.sim.requests.length, before + 1);
  assert.equal(request.status, 200);
  return request.json.messages;
}

Deno.test("run -c after a kill -9 during a tool call: the call gets a result right after it", async () => {
  await withSimHome([THINK_AND_CALL("sleep 3")], async (ctx) => {
    const run = spawnRun(["--permission-mode", "yolo", "--output-format", "json", "wait"], ctx);
    await until(async () => (await sessionText(ctx.home)).includes('"tool_calls"'), "the tool call");
    await new Promise((r) => setTimeout(r, 200));
    run.kill("SIGKILL");
    await run.child.status;
    const messages = await continueWorks(ctx, "resumed") as { role: string; content: string }[];
    const roles = messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user", "user", "assistant", "tool", "assistant", "user"]);
    assert.match(messages[4]!.content, /^\[no result: the previous turn was interrupted\]/);
    const session = await loadSession((await sessionFiles(ctx.home))[0]!);
    assert.equal(session.tornTail, false);
  });
});

Deno.test("run -c after a kill -9 before the first reply: the turn is closed, user messages never follow each other", async () => {
  await withSimHome([{ fault: { kind: "hang" } }], async (ctx) => {
    const run = spawnRun(["--output-format", "json", "remember banana"], ctx);
    await until(() => ctx.sim.requests.length === 1, "the first request");
    run.kill("SIGKILL");
    await run.child.status;
    const messages = await continueWorks(ctx, "banana it was") as { role: string; content: string }[];
    assert.deepEqual(messages.map((m) => m.role), ["system", "user", "user", "assistant", "user"]);
    assert.equal(messages[2]!.content, ctx.sim.requests[0]!.json.messages[2].content);
    assert.equal(messages[3]!.content, "[This turn ended without a reply: the process running it stopped]");
  });
});

Deno.test("run -c after retries ran out inside a tool-call turn replays under the strict rule", async () => {
  const fault: ScriptedReply = { fault: { kind: "status", status: 500 } };
  await withSimHome([
    { reasoning: "Read it first.", toolCalls: [{ name: "read_file", arguments: `{"path":"README.md"}` }] },
    fault,
    fault,
    fault,
    fault,
  ], async (ctx) => {
    const first = await runCli(["run", "--output-format", "json", "read"], { home: ctx.home, cwd: ctx.ws });
    assert.equal(first.code, 3, first.stderr);
    await continueWorks(ctx, "fine now");
  });
});

Deno.test("run -c after Ctrl+C inside a tool-call turn replays under the strict rule", async () => {
  await withSimHome([
    { reasoning: "Read it first.", toolCalls: [{ name: "read_file", arguments: `{"path":"README.md"}` }] },
    { fault: { kind: "hang" } },
  ], async (ctx) => {
    const run = spawnRun(["--output-format", "json", "read"], ctx);
    await until(() => ctx.sim.requests.length === 2, "the second request");
    Deno.kill(run.child.pid, "SIGINT");
    const out = await run.child.output();
    assert.equal(out.code, 130, new TextDecoder().decode(out.stderr));
    await continueWorks(ctx, "fine now");
  });
});

Deno.test("run -c after SIGTERM during a tool call works", async () => {
  await withSimHome([THINK_AND_CALL("sleep 3")], async (ctx) => {
    const run = spawnRun(["--permission-mode", "yolo", "--output-format", "json", "wait"], ctx);
    await until(async () => (await sessionText(ctx.home)).includes('"tool_calls"'), "the tool call");
    run.kill("SIGTERM");
    await run.child.status;
    await continueWorks(ctx, "resumed");
  });
});

Deno.test("a second run -c on a session in use is refused naming the process; after a kill -9 it works", async () => {
  await withSimHome([{ content: "one" }, { fault: { kind: "hang" } }], async (ctx) => {
    const first = await runCli(["run", "start"], { home: ctx.home, cwd: ctx.ws });
    assert.equal(first.code, 0, first.stderr);
    const holder = spawnRun(["-c", "--output-format", "json", "hang"], ctx);
    await until(() => ctx.sim.requests.length === 2, "the hanging request");
    const second = await runCli(["run", "-c", "--output-format", "json", "me too"], {
      home: ctx.home,
      cwd: ctx.ws,
    });
    assert.equal(second.code, 1);
    const refusal = result(second.stdout);
    assert.equal(refusal.error.code, "session.locked");
    assert.match(refusal.result, /in use by process \d+ .*\(started at \d{4}-\d\d-\d\dT/);
    assert.equal(ctx.sim.requests.length, 2, "the refused run sent nothing");
    holder.kill("SIGKILL");
    await holder.child.status;
    await continueWorks(ctx, "mine now");
    const session = await loadSession((await sessionFiles(ctx.home))[0]!);
    const users = session.messages.filter((m) => m.role === "user").map((m) => m.content);
    assert.deepEqual(users.slice(1), ["start", "hang", "go on"]);
  });
});

Deno.test("opening the shell and leaving writes no session, and -c skips sessions without a turn", async () => {
  await withSimHome([{ content: "banana noted" }], async (ctx) => {
    const first = await runCli(["run", "remember banana"], { home: ctx.home, cwd: ctx.ws });
    assert.equal(first.code, 0, first.stderr);
    const shell = await runCli([], { home: ctx.home, cwd: ctx.ws, stdin: "" });
    assert.equal(shell.code, 0, shell.stderr);
    assert.equal((await sessionFiles(ctx.home)).length, 1, "the shell wrote no empty session");
    // An empty session written by an older version, newer than the real one:
    const { SessionStore } = await import("../../src/session/store.ts");
    const { resolvePaths } = await import("../../src/config/paths.ts");
    const empty = await SessionStore.create(resolvePaths({ REASONIX_HOME: ctx.home }).sessionsDir, {
      workspace: ctx.ws,
      model: "deepseek-flash",
      provider: "deepseek-flash",
    });
    await empty.append({ type: "message", message: { role: "system", content: "s" } });
    empty.close();
    const messages = await continueWorks(ctx, "banana") as { content: string }[];
    assert.ok(messages.some((m) => m.content === "remember banana"), "-c carried the earlier turn");
  });
});

Deno.test("--resume takes a title or first-message substring and names another workspace's session", async () => {
  await withSimHome([{ content: "a" }, { content: "b" }, { content: "c" }], async (ctx) => {
    await runCli(["run", "refactor the parser"], { home: ctx.home, cwd: ctx.ws });
    await runCli(["run", "write the docs"], { home: ctx.home, cwd: ctx.ws });
    const byText = await runCli(["run", "--resume", "PARSER", "--output-format", "json", "more"], {
      home: ctx.home,
      cwd: ctx.ws,
    });
    assert.equal(byText.code, 0, byText.stderr);
    const sent = ctx.sim.requests.at(-1)!.json.messages.map((m: { content: string }) => m.content);
    assert.ok(sent.includes("refactor the parser") && !sent.includes("write the docs"));
    const id = result(byText.stdout).session_id as string;
    const other = await makeWorkspace({});
    try {
      const elsewhere = await runCli(["run", "--resume", id, "--output-format", "json", "x"], {
        home: ctx.home,
        cwd: other,
      });
      assert.equal(elsewhere.code, 1);
      assert.equal(result(elsewhere.stdout).error.code, "session.other_workspace");
      assert.match(result(elsewhere.stdout).result, new RegExp(`belongs to workspace "${ctx.ws}"`));
    } finally {
      await removeAll(other);
    }
  });
});

Deno.test("run -c uses the session's stored provider, and names the choices when it is gone", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "one" }, { content: "two" }] });
  const ws = await makeWorkspace({});
  const home = await Deno.makeTempDir({ prefix: "reasonix-home-" });
  const provider = (name: string, keyEnv: string) =>
    `[[providers]]\nname = "${name}"\nkind = "openai"\nbase_url = "${sim.url}"\nmodels = ["deepseek-flash"]\n` +
    `api_key_env = "${keyEnv}"\nreasoning_protocol = "deepseek"\n`;
  const config = (fallback: string, ...providers: string[]) =>
    Deno.writeTextFile(`${home}/config.toml`, `default_model = "${fallback}"\n\n${providers.join("\n")}`);
  try {
    await Deno.writeTextFile(`${home}/.env`, "OWN_KEY=sk-own\n");
    await config("own", provider("deepseek-flash", "DEEPSEEK_API_KEY"), provider("own", "OWN_KEY"));
    const first = await runCli(["run", "hello"], { home, cwd: ws });
    assert.equal(first.code, 0, first.stderr);
    const resumed = await runCli(["run", "-c", "again"], { home, cwd: ws });
    assert.equal(resumed.code, 0, resumed.stdout + resumed.stderr);
    assert.equal(sim.requests[1]!.headers["authorization"], "Bearer sk-own");
    await config("deepseek-flash", provider("deepseek-flash", "DEEPSEEK_API_KEY"));
    const gone = await runCli(["run", "-c", "--output-format", "json", "more"], { home, cwd: ws });
    assert.equal(gone.code, 1);
    const error = result(gone.stdout);
    assert.equal(error.error.code, "session.provider_missing");
    assert.match(error.result, /provider "own".*no longer configured.*"deepseek-flash\/deepseek-flash"/);
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
});
