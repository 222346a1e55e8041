import assert from "node:assert/strict";
import { join } from "node:path";
import { DirectSandbox } from "../../src/sandbox/none.ts";
import type { SpawnedProcess } from "../../src/sandbox/sandbox.ts";
import { describeStatus, JobTable } from "../../src/tool/jobs.ts";
import { readUntil } from "./_jobs.ts";
import { isGone } from "../support/processes.ts";
import { rejectsWithCode } from "./_tool_context.ts";

const sandbox = new DirectSandbox();

function start(jobs: JobTable, command: string, cwd = "/"): string {
  return jobs.add(command, sandbox.spawnShell(command, { cwd })).id;
}

async function withTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_jobs_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function fakeProcess(status: Promise<never>): SpawnedProcess {
  return {
    pid: 4242,
    output: new ReadableStream({ start: (controller) => controller.close() }),
    status,
    kill() {},
  };
}

Deno.test("JobTable.add() numbers jobs and records the command and pid", async () => {
  const at = new Date("2025-01-02T03:04:05Z");
  await using jobs = new JobTable({ now: () => at });
  const process = sandbox.spawnShell("exit 0", { cwd: "/" });
  const first = jobs.add("exit 0", process);
  assert.deepEqual(first, {
    id: "bash-1",
    pid: process.pid,
    command: "exit 0",
    startedAt: at,
    endedAt: null,
    status: "running",
    exitCode: null,
    signal: null,
  });
  assert.equal(start(jobs, "exit 0"), "bash-2");
  assert.equal(await jobs.wait("bash-1", { timeoutMs: 30_000 }), true);
  assert.equal(await jobs.wait("bash-2", { timeoutMs: 30_000 }), true);
  assert.deepEqual(jobs.list().map((job) => [job.id, job.status, job.exitCode, job.endedAt]), [
    ["bash-1", "exited", 0, at],
    ["bash-2", "exited", 0, at],
  ]);
});

Deno.test("JobTable.read() returns only the output that is new since the previous read", async () => {
  await withTempDir(async (dir) => {
    await using jobs = new JobTable();
    const id = start(jobs, "echo one; until [ -e go ]; do sleep 0.01; done; echo two; sleep 100", dir);
    assert.equal(await readUntil(jobs, id, /one\n/), "one\n");
    await Deno.writeTextFile(join(dir, "go"), "");
    assert.equal(await readUntil(jobs, id, /two\n/), "two\n");
    assert.deepEqual(jobs.read(id), { job: jobs.get(id), output: "", droppedBytes: 0 });
  });
});

Deno.test("JobTable.read() keeps only matching lines with a filter but still consumes the rest", async () => {
  await using jobs = new JobTable();
  const id = start(jobs, "printf 'a1\\nb1\\na2\\nb2\\n'");
  assert.equal(await jobs.wait(id, { timeoutMs: 30_000 }), true);
  assert.equal(jobs.read(id, { filter: /^a/ }).output, "a1\na2\n");
  assert.equal(jobs.read(id).output, "");
});

Deno.test("JobTable.read() counts the unread bytes the bounded buffer dropped", async () => {
  await using jobs = new JobTable({ maxBufferBytes: 1000 });
  const id = start(jobs, "seq 1 2000");
  assert.equal(await jobs.wait(id, { timeoutMs: 30_000 }), true);
  const all = Array.from({ length: 2000 }, (_, i) => `${i + 1}\n`).join("");
  const read = jobs.read(id);
  assert.equal(read.droppedBytes, all.length - 1000);
  assert.equal(read.output, all.slice(-1000));
  assert.equal(read.job.exitCode, 0);
  assert.deepEqual(jobs.read(id), { job: read.job, output: "", droppedBytes: 0 });
});

Deno.test("JobTable.wait() resolves with the exit code once the job ends", async () => {
  await using jobs = new JobTable();
  const id = start(jobs, "echo done; exit 3");
  assert.equal(await jobs.wait(id, { timeoutMs: 30_000 }), true);
  const read = jobs.read(id);
  assert.equal(read.output, "done\n");
  assert.equal(read.job.status, "exited");
  assert.equal(read.job.exitCode, 3);
  assert.equal(describeStatus(read.job), "exited with code 3");
});

Deno.test("JobTable.wait() gives up after the timeout or an abort and leaves the job running", async () => {
  await using jobs = new JobTable();
  const id = start(jobs, "sleep 100");
  assert.equal(await jobs.wait(id, { timeoutMs: 20 }), false);
  const controller = new AbortController();
  const waiting = jobs.wait(id, { timeoutMs: 600_000, signal: controller.signal });
  controller.abort();
  assert.equal(await waiting, false);
  assert.equal(jobs.get(id)?.status, "running");
});

Deno.test("JobTable.kill() stops the whole process group, grandchildren included", async () => {
  await using jobs = new JobTable();
  const id = start(jobs, "sleep 100 & echo $!; wait");
  const grandchild = Number((await readUntil(jobs, id, /^\d+\n/)).trim());
  const shell = jobs.get(id)!.pid;
  assert.equal(await isGone(grandchild), false);
  const { stopped, job } = await jobs.kill(id);
  assert.equal(stopped, true);
  assert.equal(job.status, "killed");
  assert.equal(job.signal, "SIGTERM");
  assert.equal(describeStatus(job), "killed by SIGTERM");
  assert.equal(await isGone(grandchild), true);
  assert.equal(await isGone(shell), true);
  assert.deepEqual(await jobs.kill(id), { stopped: false, job });
});

Deno.test("JobTable.kill() escalates to SIGKILL when the group ignores SIGTERM", async () => {
  await using jobs = new JobTable({ killGraceMs: 50 });
  const id = start(jobs, "trap '' TERM; echo ready; while true; do sleep 0.05; done");
  await readUntil(jobs, id, /ready\n/);
  const { job } = await jobs.kill(id);
  assert.equal(job.signal, "SIGKILL");
  assert.equal(await isGone(job.pid), true);
});

Deno.test("JobTable.close() kills every running job and refuses new ones", async () => {
  const jobs = new JobTable();
  const first = start(jobs, "sleep 100 & echo $!; wait");
  const grandchild = Number((await readUntil(jobs, first, /^\d+\n/)).trim());
  const second = start(jobs, "sleep 100");
  const finished = start(jobs, "exit 0");
  assert.equal(await jobs.wait(finished, { timeoutMs: 30_000 }), true);
  await jobs.close();
  assert.equal(jobs.closed, true);
  assert.deepEqual(jobs.list().map((job) => [job.id, job.status]), [
    [first, "killed"],
    [second, "killed"],
    [finished, "exited"],
  ]);
  for (const job of jobs.list()) assert.equal(await isGone(job.pid), true);
  assert.equal(await isGone(grandchild), true);
  const late = sandbox.spawnShell("sleep 100", { cwd: "/" });
  assert.throws(() => jobs.add("sleep 100", late), { code: "tool.jobs_closed" });
  assert.equal((await late.status).signal, "SIGKILL");
});

Deno.test("JobTable marks a job failed when its process cannot be supervised", async () => {
  await using jobs = new JobTable();
  const { id } = jobs.add("broken", fakeProcess(Promise.reject(new Error("lost the child"))));
  assert.equal(await jobs.wait(id, { timeoutMs: 30_000 }), true);
  const job = jobs.get(id)!;
  assert.equal(job.status, "failed");
  assert.equal(describeStatus(job), "failed: lost the child");
});

Deno.test("JobTable rejects unknown ids with the list of known jobs", async () => {
  await using jobs = new JobTable();
  assert.throws(() => jobs.read("bash-7"), {
    code: "tool.unknown_job",
    message:
      'There is no job "bash-7": no background job was started in this session (start one with bash and run_in_background)',
  });
  const id = start(jobs, "exit 2");
  await jobs.wait(id, { timeoutMs: 30_000 });
  const expected = 'There is no job "bash-9": the known jobs are: bash-1 (exited with code 2: exit 2)';
  assert.throws(() => jobs.read("bash-9"), { code: "tool.unknown_job", message: expected });
  await rejectsWithCode(jobs.wait("bash-9", { timeoutMs: 10 }), "tool.unknown_job");
  await rejectsWithCode(jobs.kill("bash-9"), "tool.unknown_job");
});
