import { z } from "zod";
import type { RunResult } from "../../sandbox/sandbox.ts";
import { defineTool, ToolError } from "../tool.ts";

/** Bytes of combined output kept (head and tail). */
export const BASH_OUTPUT_MAX_BYTES = 16_000;
/** A `timeout_ms` may extend the configured timeout up to this many times. */
const TIMEOUT_CEILING_FACTOR = 5;

const DESCRIPTION = `Run a shell command with bash in the workspace root and return its combined \
stdout and stderr, followed by a status line such as "[exit code 0]". Each call starts a fresh shell: \
directory changes and variables do not carry over. There is no terminal and no input; pass flags that \
avoid pagers and prompts. The command is stopped when the timeout passes, and any process it started in \
the background is stopped when it ends. Long output keeps its start and its end. Prefer the file tools \
for reading, searching and editing files.`;

const parameters = z.object({
  command: z.string().describe("The command line to run with bash -c"),
  timeout_ms: z.number().int().min(1).optional().describe(
    "Timeout in milliseconds (default: the configured bash timeout; at most 5 times that)",
  ),
  description: z.string().optional().describe("A few words on what the command does, shown to the user"),
});

export const bashTool = defineTool({
  name: "bash",
  description: DESCRIPTION,
  parameters,
  readOnly: false,
  truncationHint: "filter the command's output (grep, head, tail) or write it to a file and read parts",
  async execute(args, ctx) {
    const configured = ctx.limits.bashTimeoutSeconds * 1000;
    const timeoutMs = Math.min(args.timeout_ms ?? configured, configured * TIMEOUT_CEILING_FACTOR);
    const run = await ctx.sandbox.runShell(args.command, {
      cwd: ctx.workspace.root,
      signal: ctx.signal,
      timeoutMs,
      maxOutputBytes: BASH_OUTPUT_MAX_BYTES,
    });
    const text = formatRun(run, timeoutMs);
    if (run.aborted) {
      throw new ToolError("tool.aborted", `The command was interrupted before it finished\n${text}`);
    }
    // Already cut by the sandbox: say so, unless the dispatcher must still cut it to the budget.
    const fits = new TextEncoder().encode(text).length <= ctx.limits.outputBudgetBytes;
    return { output: text, truncated: run.droppedBytes > 0 && fits };
  },
});

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

function formatDuration(ms: number): string {
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return ms < 1000 ? `${ms}ms` : `${(ms / 1000).toFixed(1)}s`;
}
