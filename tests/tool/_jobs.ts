/**
 * @module
 * Helpers for background job tests: poll a job's output, and tell whether a process is gone.
 */
import type { JobTable } from "../../src/tool/jobs.ts";

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
