/**
 * @module
 * FIFOs for the "never block on a FIFO" tests: create one, and run a call that must settle promptly
 * (if it does not, the FIFOs get a writer so the blocked reader wakes up and the test can end).
 */
import assert from "node:assert/strict";

export async function mkfifo(path: string): Promise<void> {
  const { code } = await new Deno.Command("mkfifo", { args: [path] }).output();
  assert.equal(code, 0, `mkfifo ${path} failed`);
}

/** The settled value of `work` (a rejection is returned as the error), or a failure after `seconds`. */
export async function promptly<T>(work: Promise<T>, seconds: number, fifos: readonly string[]): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), seconds * 1000);
  });
  const first = await Promise.race([work, late]);
  clearTimeout(timer);
  if (first === "late") {
    for (const fifo of fifos) {
      const writer = await Deno.open(fifo, { write: true });
      writer.close();
    }
    await work.catch(() => {});
    assert.fail(`the call blocked for more than ${seconds} s`);
  }
  return first as T;
}
