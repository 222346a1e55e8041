import assert from "node:assert/strict";
import { MAX_TASK_BYTES, readTaskStream, taskFitError } from "../../../src/frontends/run/task_input.ts";
import { ReasonixError } from "../../../src/lib/errors.ts";

/** A stream of `total` bytes in `chunk`-byte pieces that counts what was pulled and whether it was cancelled. */
function countingStream(total: number, chunk: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.pulled >= total) return controller.close();
      const size = Math.min(chunk, total - state.pulled);
      state.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
    cancel() {
      state.cancelled = true;
    },
  }, { highWaterMark: 0 });
  return { stream, state };
}

Deno.test("readTaskStream() stops reading at the first chunk past the cap", async () => {
  const { stream, state } = countingStream(50 * 1024 * 1024, 64 * 1024);
  const error = await readTaskStream(stream).catch((e) => e);
  assert.ok(error instanceof ReasonixError, String(error));
  assert.equal(error.code, "usage.task_too_large");
  assert.equal(error.message, "Cannot send the task: standard input holds more than 8 MiB");
  assert.ok(state.pulled <= MAX_TASK_BYTES + 64 * 1024, `pulled ${state.pulled}`);
  assert.equal(state.cancelled, true);
});

Deno.test("readTaskStream() reads a task at the cap whole, and UTF-8 split across chunks", async () => {
  const { stream } = countingStream(1000, 7);
  assert.equal(await readTaskStream(stream, 1000), "a".repeat(1000));
  const bytes = new TextEncoder().encode("naïve 漢字 ✓");
  const split = ReadableStream.from([bytes.slice(0, 3), bytes.slice(3, 8), bytes.slice(8)]);
  assert.equal(await readTaskStream(split), "naïve 漢字 ✓");
});

Deno.test("taskFitError() refuses only a task that cannot fit the window", () => {
  assert.equal(taskFitError("x".repeat(6000), 1000), null, "6 bytes a token is the lower bound");
  const unfit = taskFitError("x".repeat(6001), 1000);
  assert.equal(unfit?.code, "usage.task_too_large");
  assert.equal(
    unfit?.message,
    "Cannot send the task: it is 5.9 KiB, at least 1,001 tokens, and the model's context window is 1,000 tokens",
  );
  assert.match(unfit?.hint ?? "", /file/);
  assert.equal(taskFitError("x".repeat(100_000), null), null, "no window known: only the byte cap");
  assert.match(taskFitError("x".repeat(MAX_TASK_BYTES + 1), null)?.message ?? "", /more than 8 MiB/);
});
