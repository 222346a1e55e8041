/**
 * @module
 * Background jobs of one session: each `bash` call with `run_in_background` becomes a job whose output
 * is read continuously into a bounded buffer, so a chatty job never blocks the agent loop. Reads return
 * only what is new since the previous read. Ending the session kills every job's process group.
 */
import type { SpawnedProcess } from "../sandbox/sandbox.ts";
import { OutputRing } from "./_output_ring.ts";
import { ToolError } from "./tool.ts";

/** Bytes of output kept per job; older bytes are dropped and counted. */
export const JOB_BUFFER_BYTES = 1024 * 1024;
/** Time a job's group gets to exit after SIGTERM before SIGKILL. */
export const JOB_KILL_GRACE_MS = 2000;
const LISTED_JOBS = 20;
const LISTED_COMMAND_CHARS = 60;

export type JobStatus = "running" | "exited" | "killed" | "failed";

export interface JobInfo {
  id: string;
  pid: number;
  command: string;
  startedAt: Date;
  endedAt: Date | null;
  status: JobStatus;
  exitCode: number | null;
  signal: string | null;
  /** Why supervising the job failed (status "failed"). */
  error?: string;
}

export interface JobRead {
  job: JobInfo;
  /** Output since the previous read, decoded; only matching lines when a filter was given. */
  output: string;
  /** Unread bytes the buffer dropped before this read could return them. */
  droppedBytes: number;
}

export interface JobReadOptions {
  /** Keeps only the lines this matches (tested with `test`, so avoid the `g` flag). */
  filter?: RegExp;
}

export interface JobWaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface JobTableOptions {
  maxBufferBytes?: number;
  killGraceMs?: number;
  now?: () => Date;
}

interface Job {
  info: JobInfo;
  process: SpawnedProcess;
  ring: OutputRing;
  cursor: number;
  stopping: boolean;
  done: Promise<void>;
}

export class JobTable implements AsyncDisposable {
  readonly #jobs = new Map<string, Job>();
  readonly #maxBufferBytes: number;
  readonly #killGraceMs: number;
  readonly #now: () => Date;
  #nextId = 1;
  #closed = false;
  #listeners = new Set<() => void>();

  constructor(options: JobTableOptions = {}) {
    this.#maxBufferBytes = options.maxBufferBytes ?? JOB_BUFFER_BYTES;
    this.#killGraceMs = options.killGraceMs ?? JOB_KILL_GRACE_MS;
    this.#now = options.now ?? (() => new Date());
  }

  /** Called whenever a job starts or ends, so a face shows running jobs without polling. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** True once `close()` was called: no job may start any more. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Takes over a process the sandbox just started; it is killed at once if the table is closed. */
  add(command: string, process: SpawnedProcess): JobInfo {
    if (this.#closed) {
      process.kill("SIGKILL");
      process.status.catch(() => {});
      process.output.cancel().catch(() => {});
      throw new ToolError("tool.jobs_closed", "Cannot start a background job: the session is ending");
    }
    const info: JobInfo = {
      id: `bash-${this.#nextId++}`,
      pid: process.pid,
      command,
      startedAt: this.#now(),
      endedAt: null,
      status: "running",
      exitCode: null,
      signal: null,
    };
    const job: Job = {
      info,
      process,
      ring: new OutputRing(this.#maxBufferBytes),
      cursor: 0,
      stopping: false,
      done: Promise.resolve(),
    };
    job.done = this.#supervise(job).finally(() => this.#changed());
    this.#jobs.set(info.id, job);
    this.#changed();
    return { ...info };
  }

  get(id: string): JobInfo | undefined {
    const job = this.#jobs.get(id);
    return job ? { ...job.info } : undefined;
  }

  list(): JobInfo[] {
    return [...this.#jobs.values()].map((job) => ({ ...job.info }));
  }

  /** Output since the previous read of `id`, without waiting. */
  read(id: string, options: JobReadOptions = {}): JobRead {
    const job = this.#require(id);
    const { bytes, droppedBytes } = job.ring.sliceFrom(job.cursor);
    job.cursor = job.ring.end;
    const text = new TextDecoder().decode(bytes);
    const output = options.filter ? keepLines(text, options.filter) : text;
    return { job: { ...job.info }, output, droppedBytes };
  }

  /** Resolves true when `id` has ended, false when the timeout passed or `signal` aborted first. */
  async wait(id: string, options: JobWaitOptions): Promise<boolean> {
    const job = this.#require(id);
    if (job.info.status !== "running") return true;
    if (options.signal?.aborted) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    const cut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), Math.max(0, options.timeoutMs));
      onAbort = () => resolve(false);
      options.signal?.addEventListener("abort", onAbort, { once: true });
    });
    try {
      return await Promise.race([job.done.then(() => true), cut]);
    } finally {
      clearTimeout(timer);
      if (onAbort) options.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** Stops `id` and its whole process group; `stopped` is false when it had already ended. */
  async kill(id: string): Promise<{ stopped: boolean; job: JobInfo }> {
    const job = this.#require(id);
    if (job.info.status !== "running") return { stopped: false, job: { ...job.info } };
    await this.#stop(job);
    return { stopped: true, job: { ...job.info } };
  }

  /** Stops every running job and waits until each one is reaped. */
  async killAll(): Promise<void> {
    const running = [...this.#jobs.values()].filter((job) => job.info.status === "running");
    await Promise.all(running.map((job) => this.#stop(job)));
  }

  /** Refuses new jobs, stops the running ones and waits for all of them to be reaped. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.killAll();
    await Promise.all([...this.#jobs.values()].map((job) => job.done));
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** A line per recent job, for messages about an unknown id. */
  describeJobs(): string {
    const jobs = [...this.#jobs.values()].slice(-LISTED_JOBS);
    return jobs.map((job) => `${job.info.id} (${describeStatus(job.info)}: ${brief(job.info.command)})`)
      .join(", ");
  }

  async #stop(job: Job): Promise<void> {
    job.stopping = true;
    job.process.kill("SIGTERM");
    const escalation = setTimeout(() => job.process.kill("SIGKILL"), this.#killGraceMs);
    try {
      await job.done;
    } finally {
      clearTimeout(escalation);
    }
  }

  async #supervise(job: Job): Promise<void> {
    const reader = job.process.output.getReader();
    const pump = (async () => {
      while (true) {
        const { done, value } = await reader.read();
        if (done) return;
        job.ring.push(value);
      }
    })().catch(() => {});
    const info = job.info;
    try {
      const exit = await job.process.status;
      await pump;
      info.exitCode = exit.exitCode;
      info.signal = exit.signal;
      info.status = job.stopping || exit.signal ? "killed" : "exited";
    } catch (error) {
      await reader.cancel().catch(() => {});
      await pump;
      info.status = "failed";
      info.error = error instanceof Error ? error.message : String(error);
    }
    info.endedAt = this.#now();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  #require(id: string): Job {
    const job = this.#jobs.get(id);
    if (job) return job;
    const known = this.#jobs.size === 0
      ? "no background job was started in this session (start one with bash and run_in_background)"
      : `the known jobs are: ${this.describeJobs()}`;
    throw new ToolError("tool.unknown_job", `There is no job "${id}": ${known}`);
  }
}

/** "running", "exited with code 2", "killed by SIGTERM", "failed: ...". */
export function describeStatus(info: JobInfo): string {
  switch (info.status) {
    case "running":
      return "running";
    case "exited":
      return `exited with code ${info.exitCode ?? "unknown"}`;
    case "killed":
      return info.signal ? `killed by ${info.signal}` : `killed (exit code ${info.exitCode ?? "unknown"})`;
    case "failed":
      return `failed: ${info.error ?? "unknown error"}`;
  }
}

function keepLines(text: string, filter: RegExp): string {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const kept = lines.filter((line) => {
    filter.lastIndex = 0;
    return filter.test(line);
  });
  return kept.length === 0 ? "" : `${kept.join("\n")}\n`;
}

function brief(command: string): string {
  const line = command.replace(/\s+/g, " ").trim();
  return line.length <= LISTED_COMMAND_CHARS ? line : `${line.slice(0, LISTED_COMMAND_CHARS - 1)}…`;
}
