import assert from "node:assert/strict";
import { DirectSandbox } from "../../../src/sandbox/none.ts";
import type { RunOptions, RunResult, Sandbox } from "../../../src/sandbox/sandbox.ts";
import { BASH_OUTPUT_MAX_BYTES, bashTool, formatRun } from "../../../src/tool/builtin/bash.ts";
import { JobTable } from "../../../src/tool/jobs.ts";
import type { ToolContext } from "../../../src/tool/tool.ts";
import { ToolRegistry } from "../../../src/tool/registry.ts";
import { readUntil } from "../_jobs.ts";
import { isGone } from "../../support/processes.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";
import { box, BWRAP_MISSING } from "../../sandbox/_bwrap.ts";

function run(overrides: Partial<RunResult>): RunResult {
  return {
    output: "",
    exitCode: 0,
    signal: null,
    timedOut: false,
    aborted: false,
    droppedBytes: 0,
    lines: 0,
    ...overrides,
  };
}

/** Records the options of each run and answers with `result`. */
class ScriptedSandbox implements Sandbox {
  readonly name = "scripted";
  readonly calls: { command: string; options: RunOptions }[] = [];
  constructor(readonly result: RunResult) {}
  runShell(command: string, options: RunOptions): Promise<RunResult> {
    this.calls.push({ command, options });
    return Promise.resolve(this.result);
  }
  runArgv(): Promise<RunResult> {
    return Promise.reject(new Error("not used"));
  }
}

function withSandbox(ctx: ToolContext, sandbox: Sandbox, bashTimeoutSeconds = 120): ToolContext {
  return { ...ctx, sandbox, limits: { ...ctx.limits, bashTimeoutSeconds } };
}

Deno.test("bashTool runs in the workspace root and ends with the exit code", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await ws.write("hello.txt", "hi there\n");
  const ok = await bashTool.execute({ command: "pwd; cat hello.txt" }, ws.ctx);
  assert.equal(ok.output, `${ws.root}\nhi there\n[exit code 0]`);
  const failed = await bashTool.execute({ command: "echo oops >&2; exit 2" }, ws.ctx);
  assert.equal(failed.output, "oops\n[exit code 2]");
  const quiet = await bashTool.execute({ command: "true" }, ws.ctx);
  assert.equal(quiet.output, "(no output)\n[exit code 0]");
});

Deno.test("bashTool reports a timeout and a kill by signal", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  const slow = await bashTool.execute({ command: "echo begun; sleep 30", timeout_ms: 200 }, ws.ctx);
  assert.equal(slow.output, "begun\n[timed out after 200ms]");
  const killed = await bashTool.execute({ command: "kill -TERM $$" }, ws.ctx);
  assert.equal(killed.output, "(no output)\n[killed by SIGTERM]");
});

Deno.test("bashTool caps timeout_ms at five times the configured timeout and defaults to it", async () => {
  await using ws = await makeTestWorkspace();
  const sandbox = new ScriptedSandbox(run({ output: "x\n" }));
  const ctx = withSandbox(ws.ctx, sandbox, 120);
  await bashTool.execute({ command: "a" }, ctx);
  await bashTool.execute({ command: "b", timeout_ms: 5000 }, ctx);
  await bashTool.execute({ command: "c", timeout_ms: 10_000_000 }, ctx);
  assert.deepEqual(sandbox.calls.map((c) => [c.command, c.options.timeoutMs]), [
    ["a", 120_000],
    ["b", 5000],
    ["c", 600_000],
  ]);
  const first = sandbox.calls[0]!.options;
  assert.equal(first.cwd, ws.root);
  assert.equal(first.maxOutputBytes, BASH_OUTPUT_MAX_BYTES);
  assert.equal(first.signal, ws.ctx.signal);
});

Deno.test("formatRun() writes the status line the model reads", () => {
  assert.equal(formatRun(run({ output: "a\n", exitCode: 0 }), 1000), "a\n[exit code 0]");
  assert.equal(formatRun(run({ output: "a", exitCode: 1 }), 1000), "a\n[exit code 1]");
  assert.equal(
    formatRun(run({ timedOut: true, exitCode: null, signal: "SIGTERM" }), 120_000),
    "(no output)\n[timed out after 120s]",
  );
  assert.equal(
    formatRun(run({ timedOut: true, exitCode: null }), 1500),
    "(no output)\n[timed out after 1.5s]",
  );
  assert.equal(
    formatRun(run({ exitCode: null, signal: "SIGKILL" }), 1000),
    "(no output)\n[killed by SIGKILL]",
  );
});

Deno.test("bashTool keeps 16000 bytes of long output, head and tail", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  const result = await bashTool.execute({ command: "seq 1 100000" }, ws.ctx);
  const lines = result.output.split("\n");
  assert.equal(lines[0], "1");
  assert.equal(lines.at(-2), "100000");
  assert.equal(lines.at(-1), "[exit code 0]");
  assert.ok(lines.some((line) => /^\[\.\.\. \d+ bytes of output omitted \.\.\.\]$/.test(line)));
  assert.ok(new TextEncoder().encode(result.output).length < BASH_OUTPUT_MAX_BYTES + 100);
  assert.equal(result.truncated, true);
});

Deno.test("bashTool turns an interrupted command into tool.aborted", async () => {
  await using ws = await makeTestWorkspace();
  const sandbox = new ScriptedSandbox(
    run({ output: "partial\n", aborted: true, exitCode: null, signal: "SIGTERM" }),
  );
  await assert.rejects(bashTool.execute({ command: "sleep 9" }, withSandbox(ws.ctx, sandbox)), {
    code: "tool.aborted",
    message: "The command was interrupted before it finished\npartial\n[interrupted]",
  });
});

Deno.test("bashTool schema: command required, timeout_ms a positive integer, a background flag", () => {
  const registry = new ToolRegistry();
  registry.register(bashTool);
  const parameters = JSON.parse(registry.toolJson("bash")!).function.parameters;
  assert.deepEqual(parameters.required, ["command"]);
  assert.deepEqual(Object.keys(parameters.properties), [
    "command",
    "description",
    "run_in_background",
    "timeout_ms",
  ]);
  assert.equal(parameters.properties.run_in_background.type, "boolean");
  assert.deepEqual(parameters.properties.timeout_ms.type, "integer");
  assert.equal(parameters.properties.timeout_ms.minimum, 1);
  assert.equal(bashTool.readOnly, false);
  assert.equal(bashTool.parameters.safeParse({ command: "ls", timeout_ms: 0 }).success, false);
  assert.equal(bashTool.parameters.safeParse({ timeout_ms: 5 }).success, false);
});

Deno.test("bashTool with run_in_background starts a job in the workspace root and returns at once", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const started = await bashTool.execute({ command: "pwd; sleep 100", run_in_background: true }, ctx);
  const job = jobs.get("bash-1")!;
  assert.deepEqual(started, {
    output: `Started background job bash-1 (pid ${job.pid}): use bash_output to read its output, ` +
      "wait to block until it ends, kill_shell to stop it",
    data: { kind: "job", jobId: "bash-1", status: "running", exitCode: null },
  });
  assert.equal(job.status, "running");
  assert.equal(job.command, "pwd; sleep 100");
  assert.equal(await readUntil(jobs, "bash-1", /\n/), `${ws.root}\n`);
  await jobs.close();
  assert.equal(jobs.get("bash-1")!.status, "killed");
  assert.equal(await isGone(job.pid), true);
});

Deno.test("bashTool with run_in_background fails clearly without a job table or a spawning sandbox", async () => {
  await using ws = await makeTestWorkspace();
  await rejectsWithCode(
    bashTool.execute({ command: "sleep 1", run_in_background: true }, ws.ctx),
    "tool.jobs_unavailable",
  );
  await using jobs = new JobTable();
  const scripted = withSandbox({ ...ws.ctx, jobs }, new ScriptedSandbox(run({})));
  const error = await rejectsWithCode(
    bashTool.execute({ command: "sleep 1", run_in_background: true }, scripted),
    "tool.jobs_unavailable",
  );
  assert.equal(
    error.message,
    "Cannot run in the background: this session has no background jobs; run the command without " +
      "run_in_background",
  );
  await jobs.close();
  await rejectsWithCode(
    bashTool.execute({ command: "sleep 1", run_in_background: true }, { ...ws.ctx, jobs }),
    "tool.jobs_closed",
  );
});

Deno.test("bashTool tells how many lines a command printed, also past the kept head and tail", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  const long = await bashTool.execute({ command: "seq 1 20000" }, ws.ctx);
  assert.equal(long.data?.kind === "bash" && long.data.lines, 20000);
  // Without an OS sandbox a read-only file system is the disk's, not a refusal.
  const failed = await bashTool.execute({ command: "echo 'x: Read-only file system'; exit 1" }, ws.ctx);
  assert.deepEqual(failed.data?.kind === "bash" && [failed.data.lines, failed.data.sandboxDenied], [
    1,
    false,
  ]);
});

Deno.test({
  name: "bashTool marks a write bubblewrap refused as denied by the sandbox",
  ignore: BWRAP_MISSING,
  async fn() {
    await using b = await box();
    await using ws = await makeTestWorkspace({ sandbox: b.sandbox });
    const ctx = { ...ws.ctx, workspace: { ...ws.ctx.workspace, root: b.ws } };
    const refused = await bashTool.execute({ command: `touch ${b.outside}/x` }, ctx);
    assert.equal(refused.data?.kind === "bash" && refused.data.sandboxDenied, true);
    const allowed = await bashTool.execute({ command: "touch inside && echo made" }, ctx);
    assert.deepEqual(allowed.data?.kind === "bash" && [allowed.data.sandboxDenied, allowed.data.lines], [
      false,
      1,
    ]);
  },
});
