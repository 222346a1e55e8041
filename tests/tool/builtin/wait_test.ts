import assert from "node:assert/strict";
import { DirectSandbox } from "../../../src/sandbox/none.ts";
import { waitTool } from "../../../src/tool/builtin/wait.ts";
import { JobTable } from "../../../src/tool/jobs.ts";
import { startJob } from "../_jobs.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";

Deno.test("waitTool blocks until the job exits, then returns its unread output and exit code", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("echo start; sleep 0.1; echo end >&2; exit 5", ctx);
  assert.deepEqual(await waitTool.execute({ job_id: id }, ctx), {
    output: `start\nend\n[${id} exited with code 5]`,
    truncated: false,
    data: { kind: "job", jobId: id, status: "exited", exitCode: 5 },
  });
  assert.deepEqual(await waitTool.execute({ job_id: id }, ctx), {
    output: `(no new output)\n[${id} exited with code 5]`,
    truncated: false,
    data: { kind: "job", jobId: id, status: "exited", exitCode: 5 },
  });
});

Deno.test("waitTool returns after the timeout with the job still running", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("sleep 100", ctx);
  assert.deepEqual(await waitTool.execute({ job_id: id, timeout_ms: 50 }, ctx), {
    output: `(no new output)\n[${id} still running after waiting 50ms]`,
    truncated: false,
    data: { kind: "job", jobId: id, status: "running", exitCode: null },
  });
  assert.equal(jobs.get(id)?.status, "running");
});

Deno.test("waitTool stops waiting when the turn is interrupted and leaves the job running", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const controller = new AbortController();
  const ctx = { ...ws.ctx, jobs, signal: controller.signal };
  const id = await startJob("sleep 100", ctx);
  const waiting = waitTool.execute({ job_id: id, timeout_ms: 600_000 }, ctx);
  controller.abort();
  const error = await rejectsWithCode(waiting, "tool.aborted");
  assert.equal(error.message, `Stopped waiting for ${id}: the turn was interrupted; the job keeps running`);
  assert.equal(jobs.get(id)?.status, "running");
});

Deno.test("waitTool rejects an unknown id and a timeout over ten minutes", async () => {
  await using ws = await makeTestWorkspace();
  await using jobs = new JobTable();
  await rejectsWithCode(waitTool.execute({ job_id: "bash-1" }, { ...ws.ctx, jobs }), "tool.unknown_job");
  assert.equal(waitTool.parameters.safeParse({ job_id: "bash-1", timeout_ms: 600_001 }).success, false);
  assert.equal(waitTool.parameters.safeParse({ job_id: "bash-1", timeout_ms: 600_000 }).success, true);
});
