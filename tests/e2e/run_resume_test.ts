import assert from "node:assert/strict";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import { cliCommand, makeHome, makeWorkspace, removeAll, runCli, sessionFiles } from "../support/cli.ts";
import { loadSession } from "../../src/session/store.ts";

interface Ctx {
  sim: DeepSeekSim;
  home: string;
  ws: string;
}

async function withSim(script: ScriptedReply[], body: (ctx: Ctx) => Promise<void>): Promise<void> {
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({ simUrl: sim.url });
  const ws = await makeWorkspace({ "README.md": "# fixture\n" });
  try {
    await body({ sim, home, ws });
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}

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
function spawnRun(args: string[], ctx: Ctx) {
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

async function continueWorks(ctx: Ctx, answer: string): Promise<unknown[]> {
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
  await withSim([THINK_AND_CALL("sleep 3")], async (ctx) => {
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

Deno.test("run -c after retries ran out inside a tool-call turn replays under the strict rule", async () => {
  const fault: ScriptedReply = { fault: { kind: "status", status: 500 } };
  await withSim([
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
  await withSim([
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
  await withSim([THINK_AND_CALL("sleep 3")], async (ctx) => {
    const run = spawnRun(["--permission-mode", "yolo", "--output-format", "json", "wait"], ctx);
    await until(async () => (await sessionText(ctx.home)).includes('"tool_calls"'), "the tool call");
    run.kill("SIGTERM");
    await run.child.status;
    await continueWorks(ctx, "resumed");
  });
});
