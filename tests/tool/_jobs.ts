/**
 * @module
 * Helpers for background job tests: start a bash job, and poll its output.
 */
import { bashTool } from "../../src/tool/builtin/bash.ts";
import type { JobTable } from "../../src/tool/jobs.ts";
import type { ToolContext } from "../../src/tool/tool.ts";

/** Starts `command` as a background bash job; returns its id (`bash-N`). */
export async function startJob(command: string, ctx: ToolContext): Promise<string> {
  const started = await bashTool.execute({ command, run_in_background: true }, ctx);
  return /bash-\d+/.exec(started.output)![0];
}

/** Reads `id` until the text read so far (returned whole) matches `pattern`. */
export async function readUntil(jobs: JobTable, id: string, pattern: RegExp): Promise<string> {
  let text = "";
  while (true) {
    const ended = jobs.get(id)?.status !== "running";
    text += jobs.read(id).output;
    if (pattern.test(text)) return text;
    if (ended) {
      throw new Error(`Job ${id} ended before its output matched ${pattern}: ${JSON.stringify(text)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
