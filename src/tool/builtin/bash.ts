import { z } from "zod";
import type { RunResult } from "../../sandbox/sandbox.ts";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "../tool.ts";

/** Bytes of combined output kept (head and tail). */
export const BASH_OUTPUT_MAX_BYTES = 16_000;
/** A `timeout_ms` may extend the configured timeout up to this many times. */
const TIMEOUT_CEILING_FACTOR = 5;

const DESCRIPTION =
  `Run a command with bash -c in the workspace root; returns its output and exit code. Each call is a fresh shell with no terminal or input: avoid pagers and prompts. Long output keeps its head and tail. Prefer the file tools for reading, searching and editing. run_in_background returns a job id at once: use bash_output, wait and kill_shell on it.`;

const parameters = z.object({
  command: z.string().describe("The command line"),
  timeout_ms: z.number().int().min(1).optional().describe(
    "Timeout in ms (default: the configured bash timeout; at most 5x that)",
  ),
  description: z.string().optional().describe("What it does, in a few words, shown to the user"),
  run_in_background: z.boolean().optional().describe(
    "Run as a background job (servers, watchers, long builds)",
  ),
});

export const bashTool = defineTool({
  name: "bash",
  description: DESCRIPTION,
  parameters,
  readOnly: false,
  truncationHint: "filter the command's output (grep, head, tail) or write it to a file and read parts",
  async execute(args, ctx) {
    if (args.run_in_background) return startJob(args.command, ctx);
    const configured = ctx.limits.bashTimeoutSeconds * 1000;
    const timeoutMs = Math.min(args.timeout_ms ?? configured, configured * TIMEOUT_CEILING_FACTOR);
    const started = performance.now();
    const run = await ctx.sandbox.runShell(args.command, {
      cwd: ctx.workspace.root,
      signal: ctx.signal,
      timeoutMs,
      maxOutputBytes: BASH_OUTPUT_MAX_BYTES,
      ...(ctx.callId ? { callId: ctx.callId } : {}),
    });
    const text = formatRun(run, timeoutMs);
    if (run.aborted) {
      throw new ToolError("tool.aborted", `The command was interrupted before it finished\n${text}`);
    }
    // Already cut by the sandbox: say so, unless the dispatcher must still cut it to the budget.
    const fits = new TextEncoder().encode(text).length <= ctx.limits.outputBudgetBytes;
    const data = {
      kind: "bash" as const,
      exitCode: run.exitCode ?? null,
      durationMs: Math.round(performance.now() - started),
      timedOut: run.timedOut === true,
      signal: run.signal ?? null,
      lines: run.lines,
      sandboxDenied: sandboxDenied(run, ctx.sandbox.name),
    };
    return { output: text, truncated: run.droppedBytes > 0 && fits, data };
  },
});

function startJob(command: string, ctx: ToolContext): ToolResult {
  const jobs = ctx.jobs;
  if (!jobs || !ctx.sandbox.spawnShell) {
    throw new ToolError(
      "tool.jobs_unavailable",
      "Cannot run in the background: this session has no background jobs; run the command without " +
        "run_in_background",
    );
  }
  if (jobs.closed) {
    throw new ToolError("tool.jobs_closed", "Cannot start a background job: the session is ending");
  }
  const job = jobs.add(command, ctx.sandbox.spawnShell(command, { cwd: ctx.workspace.root }));
  return {
    output: `Started background job ${job.id} (pid ${job.pid}): use bash_output to read its output, ` +
      "wait to block until it ends, kill_shell to stop it",
    data: { kind: "job", jobId: job.id, status: job.status, exitCode: null },
  };
}

/**
 * A command that failed on a write the OS sandbox refused: under bubblewrap everything outside the writable
 * roots is mounted read-only, so the kernel's EROFS message is the sandbox's refusal, not the disk's.
 */
function sandboxDenied(run: RunResult, sandbox: string): boolean {
  if (run.exitCode === 0 || (sandbox !== "bubblewrap" && sandbox !== "seatbelt")) return false;
  const refusal = sandbox === "bubblewrap" ? "Read-only file system" : "Operation not permitted";
  return run.output.includes(refusal);
}

/** The output, then one status line the model can read at a glance. */
export function formatRun(run: RunResult, timeoutMs: number): string {
  const body = run.output === "" ? "(no output)" : run.output.replace(/\n$/, "");
  return `${body}\n${statusLine(run, timeoutMs)}`;
}

function statusLine(run: RunResult, timeoutMs: number): string {
  if (run.timedOut) return `[timed out after ${formatDuration(timeoutMs)}]`;
  if (run.aborted) return "[interrupted]";
  if (run.signal) return `[killed by ${run.signal}]`;
  return `[exit code ${run.exitCode ?? "unknown"}]`;
}

export function formatDuration(ms: number): string {
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}
