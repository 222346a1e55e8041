import assert from "node:assert/strict";
import { DirectSandbox } from "../../../src/sandbox/none.ts";
import { jobKillTool, killShellTool } from "../../../src/tool/builtin/kill_shell.ts";
import { JobTable } from "../../../src/tool/jobs.ts";
import { readUntil, startJob } from "../_jobs.ts";
import { isGone } from "../../support/processes.ts";
import { makeTestWorkspace, rejectsWithCode } from "../_tool_context.ts";

Deno.test("killShellTool stops the job and every process in its group", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("sleep 100 & echo $!; wait", ctx);
  const grandchild = Number((await readUntil(jobs, id, /^\d+\n/)).trim());
  const shell = jobs.get(id)!.pid;
  assert.deepEqual(await killShellTool.execute({ job_id: id, reason: "no longer needed" }, ctx), {
    output: `Stopped ${id} and its process group [${id} killed by SIGTERM]`,
    data: { kind: "job", jobId: id, status: "killed", exitCode: null },
  });
  assert.equal(await isGone(grandchild), true);
  assert.equal(await isGone(shell), true);
  assert.deepEqual(await killShellTool.execute({ job_id: id }, ctx), {
    output: `Nothing to stop: ${id} had already ended [${id} killed by SIGTERM]`,
    data: { kind: "job", jobId: id, status: "killed", exitCode: null },
  });
});

Deno.test("killShellTool says so when the job had already exited", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("exit 0", ctx);
  await jobs.wait(id, { timeoutMs: 30_000 });
  assert.deepEqual(await jobKillTool.execute({ job_id: id }, ctx), {
    output: `Nothing to stop: ${id} had already ended [${id} exited with code 0]`,
    data: { kind: "job", jobId: id, status: "exited", exitCode: 0 },
  });
  assert.equal(jobKillTool.name, "job_kill");
  assert.equal(killShellTool.readOnly, false);
});

Deno.test("killShellTool answers an unknown id with the known jobs", async () => {
  await using ws = await makeTestWorkspace({ sandbox: new DirectSandbox() });
  await using jobs = new JobTable();
  const ctx = { ...ws.ctx, jobs };
  const id = await startJob("sleep 100", ctx);
  const error = await rejectsWithCode(killShellTool.execute({ job_id: "bash-99" }, ctx), "tool.unknown_job");
  assert.equal(error.message, `There is no job "bash-99": the known jobs are: ${id} (running: sleep 100)`);
  await rejectsWithCode(killShellTool.execute({ job_id: id }, ws.ctx), "tool.jobs_unavailable");
});
