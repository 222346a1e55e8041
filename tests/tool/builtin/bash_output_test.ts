import assert from "node:assert/strict";
import { join } from "node:path";
import { DirectSandbox } from "../../../src/sandbox/none.ts";
import { bashOutputTool } from "../../../src/tool/builtin/bash_output.ts";
import { JobTable } from "../../../src/tool/jobs.ts";
import type { ToolContext } from "../../../src/tool/tool.ts";
import { startJob } from "../_jobs.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";

/** Calls bash_output until its output (status line aside) matches `pattern`; returns all of it read. */
async function outputUntil(id: string, ctx: ToolContext, pattern: RegExp): Promise<string> {
  let seen = "";
  while (true) {
    const { output } = await bashOutputTool.execute({ job_id: id }, ctx);
    const body = output.replace(/\n\[bash-\d+ still running\]$/, "");
    if (body !== "(no new output)") seen += `${body}\n`;
    if (pattern.test(seen)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("bashOutputTool returns new output since the last read and the running status", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("echo one; until [ -e go ]; do sleep 0.01; done; echo two; sleep 100", ctx);
  assert.equal(await outputUntil(id, ctx, /one\n/), "one\n");
  await Deno.writeTextFile(join(ws.root, "go"), "");
  assert.equal(await outputUntil(id, ctx, /two\n/), "two\n");
  assert.deepEqual(await bashOutputTool.execute({ job_id: id }, ctx), {
    output: `(no new output)\n[${id} still running]`,
    truncated: false,
    data: { kind: "job", jobId: id, status: "running", exitCode: null },
  });
});

Deno.test("bashOutputTool with wait blocks until the job exits and reports the exit code", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("echo a1; echo b1; echo a2; exit 4", ctx);
  const result = await bashOutputTool.execute(
    { job_id: id, wait: true, timeout_ms: 30_000, filter: "^a" },
    ctx,
  );
  assert.deepEqual(result, {
    output: `a1\na2\n[${id} exited with code 4]`,
    truncated: false,
    data: { kind: "job", jobId: id, status: "exited", exitCode: 4 },
  });
  const again = await bashOutputTool.execute({ job_id: id, filter: "^a" }, ctx);
  assert.equal(again.output, `(no new matching lines)\n[${id} exited with code 4]`);
});

Deno.test("bashOutputTool notes the bytes the buffer dropped and cuts long output to the bash budget", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable({ maxBufferBytes: 20_000 });
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("seq 1 20000", ctx);
  await jobs.wait(id, { timeoutMs: 30_000 });
  const total = Array.from({ length: 20_000 }, (_, i) => `${i + 1}\n`).join("").length;
  const { output, truncated } = await bashOutputTool.execute({ job_id: id }, ctx);
  const lines = output.split("\n");
  assert.equal(lines[0], `[${total - 20_000} bytes of older output were dropped before they were read]`);
  assert.match(output, /\n\[\.\.\. \d+ bytes of output omitted: use filter to find lines \.\.\.\]\n/);
  assert.equal(lines.at(-2), "20000");
  assert.equal(lines.at(-1), `[${id} exited with code 0]`);
  assert.equal(truncated, true);
  assert.ok(new TextEncoder().encode(output).length <= 16_200);
});

Deno.test("bashOutputTool explains unknown ids, bad filters and a session without jobs", async () => {
  await using ws = await makeTestWorkspace();
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const unknown = await rejectsWithCode(
    bashOutputTool.execute({ job_id: "bash-3" }, ctx),
    "tool.unknown_job",
  );
  assert.match(unknown.message, /^There is no job "bash-3": no background job was started/);
  const id = await startJob("exit 0", ctx);
  const bad = await rejectsWithCode(
    bashOutputTool.execute({ job_id: id, filter: "(" }, ctx),
    "tool.invalid_args",
  );
  assert.match(bad.message, /^Cannot use filter "\(": /);
  await rejectsWithCode(bashOutputTool.execute({ job_id: id }, ws.ctx), "tool.jobs_unavailable");
  assert.equal(bashOutputTool.readOnly, true);
});
