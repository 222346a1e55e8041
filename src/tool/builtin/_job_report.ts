/**
 * @module
 * What bash_output, wait and kill_shell tell the model about a job: its new output (cut to the bash
 * budget, head and tail kept), a note when unread bytes were dropped, and one status line.
 */
import { truncateMiddle } from "../../lib/head_tail.ts";
import { describeStatus, type JobInfo, type JobRead, type JobTable } from "../jobs.ts";
import { type ToolContext, type ToolData, ToolError, type ToolResult } from "../tool.ts";
import { BASH_OUTPUT_MAX_BYTES, formatDuration } from "./bash.ts";

export interface JobReportOptions {
  filtered: boolean;
  /** Set when a wait ran out: how long it waited. */
  waitedMs?: number;
}

export function requireJobs(ctx: ToolContext): JobTable {
  if (ctx.jobs) return ctx.jobs;
  throw new ToolError(
    "tool.jobs_unavailable",
    "Background jobs are not available in this session: run the command without run_in_background",
  );
}

/** Compiles a `filter` argument, telling the model how to fix a bad pattern. */
export function compileFilter(filter: string | undefined): RegExp | undefined {
  if (filter === undefined) return undefined;
  try {
    return new RegExp(filter);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError("tool.invalid_args", `Cannot use filter "${filter}": ${reason}`);
  }
}

export function jobReport(read: JobRead, ctx: ToolContext, options: JobReportOptions): ToolResult {
  const parts: string[] = [];
  if (read.droppedBytes > 0) {
    parts.push(`[${read.droppedBytes} bytes of older output were dropped before they were read]`);
  }
  const cut = truncateMiddle(read.output.replace(/\n$/, ""), BASH_OUTPUT_MAX_BYTES, {
    marker: (omitted) => `[... ${omitted} bytes of output omitted: use filter to find lines ...]`,
  });
  const empty = options.filtered ? "(no new matching lines)" : "(no new output)";
  parts.push(read.output === "" ? empty : cut.text);
  parts.push(jobStatusLine(read.job, options.waitedMs));
  const output = parts.join("\n");
  const fits = new TextEncoder().encode(output).length <= ctx.limits.outputBudgetBytes;
  return { output, truncated: cut.omittedBytes > 0 && fits, data: jobData(read.job) };
}

export function jobData(job: JobInfo): ToolData {
  return { kind: "job", jobId: job.id, status: job.status, exitCode: job.exitCode };
}

export function jobStatusLine(info: JobInfo, waitedMs?: number): string {
  if (info.status !== "running") return `[${info.id} ${describeStatus(info)}]`;
  if (waitedMs === undefined) return `[${info.id} still running]`;
  return `[${info.id} still running after waiting ${formatDuration(waitedMs)}]`;
}

/** Default and ceiling of a `wait` in milliseconds. */
export const WAIT_DEFAULT_MS = 30_000;
export const WAIT_MAX_MS = 600_000;

export interface ReadJobArgs {
  job_id: string;
  filter?: string | undefined;
  /** Block until the job ends, at most this long; absent reads at once. */
  waitMs?: number | undefined;
}

/** Reads a job's new output, after waiting for it to end when asked. */
export async function readJob(args: ReadJobArgs, ctx: ToolContext): Promise<ToolResult> {
  const jobs = requireJobs(ctx);
  const filter = compileFilter(args.filter);
  let waitedMs: number | undefined;
  if (args.waitMs !== undefined) {
    const ended = await jobs.wait(args.job_id, { timeoutMs: args.waitMs, signal: ctx.signal });
    if (ctx.signal.aborted) {
      throw new ToolError(
        "tool.aborted",
        `Stopped waiting for ${args.job_id}: the turn was interrupted; the job keeps running`,
      );
    }
    if (!ended) waitedMs = args.waitMs;
  }
  const read = jobs.read(args.job_id, filter ? { filter } : {});
  return jobReport(read, ctx, {
    filtered: filter !== undefined,
    ...(waitedMs === undefined ? {} : { waitedMs }),
  });
}
