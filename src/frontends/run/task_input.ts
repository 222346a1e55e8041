/**
 * @module
 * The task of `reasonix run`, bounded: standard input is read only up to a cap, and a task that cannot
 * fit the model's context window is refused before anything is sent.
 */
import { ReasonixError } from "../../lib/errors.ts";

/**
 * Past this, no model's window holds the task. 8 MiB is at least 1.4M tokens at the bound below, more than
 * the largest window DeepSeek serves (1M).
 */
export const MAX_TASK_BYTES = 8 * 1024 * 1024;

/**
 * A lower bound on tokens: text averages 3–4.5 UTF-8 bytes a token in DeepSeek's BPE (CJK fewer), so
 * counting 6 never refuses a task that would fit.
 */
const MAX_BYTES_PER_TOKEN = 6;

const HINT =
  "Put the text in a file in the workspace and name the file in the task: the agent reads what it needs";

/** Reads a stream whole, or stops at the first chunk past `maxBytes` and throws `usage.task_too_large`. */
export async function readTaskStream(
  stream: ReadableStream<Uint8Array>,
  maxBytes = MAX_TASK_BYTES,
): Promise<string> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw tooLarge(`standard input holds more than ${formatBytes(maxBytes)}`);
      chunks.push(value);
    }
  } finally {
    // Stop the writer instead of draining it: the rest is never read.
    await reader.cancel().catch(() => {});
  }
  const decoder = new TextDecoder();
  return chunks.map((chunk, i) => decoder.decode(chunk, { stream: i < chunks.length - 1 })).join("");
}

/** `usage.task_too_large` when the task alone is more than `maxBytes` or certainly more than the window. */
export function taskFitError(task: string, contextWindow: number | null, maxBytes = MAX_TASK_BYTES) {
  const bytes = new TextEncoder().encode(task).byteLength;
  if (bytes > maxBytes) return tooLarge(`it is ${formatBytes(bytes)}, more than ${formatBytes(maxBytes)}`);
  if (contextWindow === null) return null;
  const atLeast = Math.ceil(bytes / MAX_BYTES_PER_TOKEN);
  if (atLeast <= contextWindow) return null;
  return tooLarge(
    `it is ${formatBytes(bytes)}, at least ${atLeast.toLocaleString("en-US")} tokens, and the model's ` +
      `context window is ${contextWindow.toLocaleString("en-US")} tokens`,
  );
}

function tooLarge(reason: string): ReasonixError {
  return new ReasonixError("usage.task_too_large", `Cannot send the task: ${reason}`, { hint: HINT });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1).replace(/\.0$/, "")} KiB`;
  return `${bytes} bytes`;
}
