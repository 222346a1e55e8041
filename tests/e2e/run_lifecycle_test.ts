/**
 * The real `reasonix run` process tree (the CLI, its fenced child, the file agent, bash calls, background
 * jobs, bubblewrap) on every way a run ends: each child is reaped before the CLI exits, a stop signal
 * ends the turn with a result and a resumable session, and killing the CLI with SIGKILL takes its fenced
 * child and every descendant with it. Processes are found in /proc by session and by an environment
 * marker that reaches the children started in sessions of their own.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { cliCommand, runCli } from "../support/cli.ts";
import { describe, eventually, newMarker, processesOf } from "../support/processes.ts";
import { type SimHome, withSimHome } from "../support/sim_home.ts";

type SandboxKind = "none" | "bubblewrap";
const SANDBOXES: SandboxKind[] = ["none", "bubblewrap"];
const linux = Deno.build.os === "linux";

type Ctx = SimHome;

function withSim(
  script: ScriptedReply[],
  sandbox: SandboxKind,
  body: (ctx: Ctx) => Promise<void>,
): Promise<void> {
  // bubblewrap is the default on Linux; `bash = false` runs commands directly, each in its own session.
  return withSimHome(script, body, { extraToml: sandbox === "none" ? "[sandbox]\nbash = false\n" : "" });
}

/** `reasonix run --yolo --output-format json <args>`, detached so it leads its own session. */
function startRun(ctx: Ctx, args: string[]) {
  const marker = newMarker();
  const child = cliCommand(["run", "--yolo", "--output-format", "json", ...args], {
    home: ctx.home,
    cwd: ctx.ws,
    detached: true,
    env: { [marker.name]: marker.value },
  }).spawn();
  const output = child.output();
  const left = () => processesOf({ leader: child.pid, marker: marker.entry });
  return { child, output, left };
}

function call(name: string, args: Record<string, unknown>) {
  return { name, arguments: JSON.stringify(args) };
}

/** A background job, a command that leaves a process behind, the file agent and ripgrep. */
const MANY_CHILDREN: ScriptedReply = {
  reasoning: "Start the server, then look around.",
  toolCalls: [
    call("bash", { command: "sleep 300", run_in_background: true }),
    call("bash", { command: "sleep 301 & echo started" }),
    call("read_file", { path: "README.md" }),
    call("grep", { pattern: "fixture" }),
  ],
};

function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

function jsonResult(stdout: string) {
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

async function waitForCommand(left: ReturnType<typeof startRun>["left"], command: string): Promise<void> {
  const seen = await eventually(() => left().some((p) => p.command === command), 30_000);
  assert.ok(seen, `"${command}" never started:\n${describe(left())}`);
}

for (const sandbox of SANDBOXES) {
  for (const ending of ["an answer", "a provider error"] as const) {
    Deno.test(`run (${sandbox}) reaps every child it started before it exits, after ${ending}`, {
      ignore: !linux,
    }, async () => {
      const last: ScriptedReply = ending === "an answer"
        ? { reasoning: "Done.", content: "finished" }
        : { fault: { kind: "status", status: 400 } };
      await withSim([MANY_CHILDREN, last], sandbox, async (ctx) => {
        const run = startRun(ctx, ["look around"]);
        const status = await run.child.status;
        const left = run.left();
        const out = await run.output;
        assert.equal(status.code, ending === "an answer" ? 0 : 1, decode(out.stderr));
        assert.deepEqual(left, [], `still running when the CLI exited:\n${describe(left)}`);
        assert.equal(ctx.sim.requests.length, 2);
      });
    });
  }
}

Deno.test("SIGTERM mid-turn ends it like Ctrl+C: a JSON result, exit 143, no child left, and -c resumes", {
  ignore: !linux,
}, async () => {
  const slow: ScriptedReply = {
    reasoning: "Start the server, then wait.",
    toolCalls: [
      call("bash", { command: "sleep 300", run_in_background: true }),
      call("bash", { command: "sleep 30" }),
    ],
  };
  await withSim([slow, { reasoning: "Fine.", content: "resumed" }], "none", async (ctx) => {
    const run = startRun(ctx, ["wait for it"]);
    await waitForCommand(run.left, "sleep 30");
    Deno.kill(run.child.pid, "SIGTERM");
    const status = await run.child.status;
    const left = run.left();
    const out = await run.output;
    assert.equal(status.code, 143, decode(out.stderr));
    const result = jsonResult(decode(out.stdout));
    assert.equal(result.subtype, "error_during_execution");
    assert.equal(result.error.code, "turn.terminated");
    assert.match(result.result, /SIGTERM/);
    assert.equal(result.num_model_calls, 1, "the request that asked for the tools completed and counts");
    assert.deepEqual(left, [], describe(left));
    const resumed = await runCli(["run", "-c", "--output-format", "json", "go on"], {
      home: ctx.home,
      cwd: ctx.ws,
    });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(jsonResult(resumed.stdout).result, "resumed");
    assert.equal(jsonResult(resumed.stdout).session_id, result.session_id);
    assert.ok(ctx.sim.requests.every((r) => r.status === 200), "the resumed session replays cleanly");
  });
});

Deno.test("SIGTERM to the whole process group (twice to the fenced child) still ends with one result", {
  ignore: !linux,
}, async () => {
  const slow: ScriptedReply = { reasoning: "Wait.", toolCalls: [call("bash", { command: "sleep 30" })] };
  await withSim([slow], "bubblewrap", async (ctx) => {
    const run = startRun(ctx, ["wait for it"]);
    await waitForCommand(run.left, "sleep 30");
    Deno.kill(-run.child.pid, "SIGTERM");
    const status = await run.child.status;
    const left = run.left();
    const out = await run.output;
    assert.equal(status.code, 143, decode(out.stderr));
    assert.equal(jsonResult(decode(out.stdout)).error.code, "turn.terminated");
    assert.deepEqual(left, [], describe(left));
  });
});

Deno.test("a second SIGTERM while the run closes kills every child at once and exits 143", {
  ignore: !linux,
}, async () => {
  // The job ignores SIGTERM, so closing the session waits out the kill grace before its SIGKILL.
  const stubborn: ScriptedReply = {
    reasoning: "Start it.",
    toolCalls: [
      call("bash", { command: "trap '' TERM; sleep 300", run_in_background: true }),
      call("bash", { command: "sleep 30" }),
    ],
  };
  await withSim([stubborn], "none", async (ctx) => {
    const run = startRun(ctx, ["wait for it"]);
    await waitForCommand(run.left, "sleep 30");
    Deno.kill(run.child.pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 800));
    Deno.kill(run.child.pid, "SIGTERM");
    const status = await run.child.status;
    const left = run.left();
    const out = await run.output;
    assert.equal(status.code, 143, decode(out.stderr));
    assert.equal(decode(out.stdout), "", "the run was cut short: no result");
    assert.deepEqual(left, [], describe(left));
  });
});

for (const sandbox of SANDBOXES) {
  Deno.test(`SIGKILL of reasonix run (${sandbox}) takes the fenced child and its children with it`, {
    ignore: !linux,
  }, async () => {
    const script: ScriptedReply[] = [
      {
        reasoning: "Start the server, then build.",
        toolCalls: [
          call("bash", { command: "sleep 300", run_in_background: true }),
          call("bash", { command: "sleep 2 && echo late > late.txt" }),
        ],
      },
      { reasoning: "Write it.", toolCalls: [call("write_file", { path: "after.txt", content: "x\n" })] },
      { reasoning: "Done.", content: "finished" },
    ];
    await withSim(script, sandbox, async (ctx) => {
      const run = startRun(ctx, ["build it"]);
      await waitForCommand(run.left, "sleep 2");
      assert.ok(run.left().length >= 4, describe(run.left()));
      Deno.kill(run.child.pid, "SIGKILL");
      await run.child.status;
      const gone = await eventually(() => run.left().length === 0, 2000);
      assert.ok(gone, `alive 2 s after the CLI was killed:\n${describe(run.left())}`);
      const out = await run.output;
      // Past the moment the killed command would have written its file.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      assert.equal(decode(out.stdout), "", "no result was printed");
      for (const file of ["late.txt", "after.txt"]) {
        await assert.rejects(Deno.stat(join(ctx.ws, file)), Deno.errors.NotFound, `${file} was written`);
      }
      assert.equal(ctx.sim.requests.length, 1, "no request after the kill");
    });
  });
}
