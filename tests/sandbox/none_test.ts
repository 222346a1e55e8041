import assert from "node:assert/strict";
import { join } from "node:path";
import { DirectSandbox } from "../../src/sandbox/none.ts";
import type { RunOptions } from "../../src/sandbox/sandbox.ts";
import { isGone } from "../support/processes.ts";

function options(overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    cwd: "/",
    signal: new AbortController().signal,
    timeoutMs: 30_000,
    maxOutputBytes: 100_000,
    ...overrides,
  };
}

/** A signalled process takes a moment to die on a loaded machine: poll for a while before saying no. */
async function isGoneSoon(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await isGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function waitForFile(path: string): Promise<string> {
  while (true) {
    const text = await Deno.readTextFile(path).catch(() => "");
    if (text.trim() !== "") return text.trim();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("DirectSandbox.runShell() merges stdout and stderr in arrival order", async () => {
  const sandbox = new DirectSandbox();
  const result = await sandbox.runShell(
    "echo one; sleep 0.3; echo two >&2; sleep 0.3; echo three",
    options(),
  );
  assert.deepEqual(result, {
    output: "one\ntwo\nthree\n",
    exitCode: 0,
    signal: null,
    timedOut: false,
    aborted: false,
    droppedBytes: 0,
    lines: 3,
  });
});

Deno.test("DirectSandbox.runShell() counts every line, also those dropped from the middle", async () => {
  const sandbox = new DirectSandbox();
  const long = await sandbox.runShell("seq 1 5000; printf end", { ...options(), maxOutputBytes: 200 });
  assert.ok(long.droppedBytes > 0);
  assert.equal(long.lines, 5001);
  const empty = await sandbox.runShell("true", options());
  assert.equal(empty.lines, 0);
});

Deno.test("DirectSandbox.runShell() reports exit codes and signals", async () => {
  const sandbox = new DirectSandbox();
  const failed = await sandbox.runShell("echo no >&2; exit 3", options());
  assert.equal(failed.exitCode, 3);
  assert.equal(failed.signal, null);
  assert.equal(failed.output, "no\n");
  const killed = await sandbox.runShell("kill -TERM $$", options());
  assert.equal(killed.exitCode, null);
  assert.equal(killed.signal, "SIGTERM");
  assert.equal(killed.timedOut, false);
});

Deno.test("DirectSandbox.runShell() runs in cwd with exactly the given env and stdin", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix_none_" }));
  try {
    const sandbox = new DirectSandbox();
    const env = { FOO: "bar", PATH: "/usr/bin:/bin" };
    const result = await sandbox.runShell(
      'pwd; echo "$FOO:${HOME-unset}"; cat',
      options({ cwd: dir, env, stdin: "in" }),
    );
    assert.equal(result.output, `${dir}\nbar:unset\nin`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DirectSandbox.runArgv() runs an executable without a shell", async () => {
  const sandbox = new DirectSandbox();
  const result = await sandbox.runArgv(["printf", "%s|", "a b", "$HOME", "c"], options());
  assert.equal(result.output, "a b|$HOME|c|");
  assert.equal(result.exitCode, 0);
  await assert.rejects(sandbox.runArgv(["no-such-program-reasonix"], options()), Deno.errors.NotFound);
  await assert.rejects(sandbox.runArgv([], options()), TypeError);
});

Deno.test("DirectSandbox.runArgv() keeps stderr apart when asked, so it cannot split stdout lines", async () => {
  const sandbox = new DirectSandbox();
  const script =
    'for i in 1 2 3; do printf "{\\"n\\":%s" $i; printf "noise $i\\n" >&2; sleep 0.05; echo "}"; done';
  const apart = await sandbox.runArgv(["bash", "-c", script], options({ separateStderr: true }));
  assert.equal(apart.output, '{"n":1}\n{"n":2}\n{"n":3}\n');
  assert.equal(apart.stderr, "noise 1\nnoise 2\nnoise 3\n");
  const mixed = await sandbox.runArgv(["bash", "-c", script], options());
  assert.equal(mixed.stderr, undefined);
  assert.match(mixed.output, /noise 1\n/);
});

Deno.test("DirectSandbox.runShell() kills the process group, grandchildren included, on timeout", async () => {
  const sandbox = new DirectSandbox();
  const result = await sandbox.runShell("sleep 100 & echo $!; wait", options({ timeoutMs: 300 }));
  assert.equal(result.timedOut, true);
  assert.equal(result.aborted, false);
  assert.equal(result.exitCode, null);
  const pid = Number(result.output.trim());
  assert.ok(pid > 0, `no pid in ${JSON.stringify(result.output)}`);
  assert.equal(await isGoneSoon(pid), true);
});

Deno.test("DirectSandbox.runShell() leaves no background job behind when the shell exits", async () => {
  const sandbox = new DirectSandbox();
  const result = await sandbox.runShell("sleep 100 & echo $!", options());
  assert.equal(result.exitCode, 0);
  assert.equal(result.timedOut, false);
  assert.equal(await isGoneSoon(Number(result.output.trim())), true);
});

Deno.test("DirectSandbox.runShell() stops the whole group on abort", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_none_" });
  try {
    const pidFile = join(dir, "pid");
    const controller = new AbortController();
    const sandbox = new DirectSandbox();
    const running = sandbox.runShell(`sleep 100 & echo $! > ${pidFile}; echo started; wait`, {
      ...options({ signal: controller.signal }),
    });
    const pid = Number(await waitForFile(pidFile));
    controller.abort();
    const result = await running;
    assert.equal(result.aborted, true);
    assert.equal(result.timedOut, false);
    assert.equal(result.signal, "SIGTERM");
    assert.equal(result.output, "started\n");
    assert.equal(await isGoneSoon(pid), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DirectSandbox.runShell() does not start when the signal is already aborted", async () => {
  const controller = new AbortController();
  controller.abort();
  const dir = await Deno.makeTempDir({ prefix: "reasonix_none_" });
  try {
    const marker = join(dir, "ran");
    const result = await new DirectSandbox().runShell(
      `touch ${marker}`,
      options({ signal: controller.signal }),
    );
    assert.equal(result.aborted, true);
    assert.equal(result.exitCode, null);
    await assert.rejects(Deno.stat(marker), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DirectSandbox.runShell() keeps the head and tail of long output and counts the rest", async () => {
  const sandbox = new DirectSandbox();
  const full = Array.from({ length: 10_000 }, (_, i) => `${i + 1}\n`).join("");
  const result = await sandbox.runShell("seq 1 10000", options({ maxOutputBytes: 1000 }));
  const lines = result.output.split("\n");
  const markerIndex = lines.findIndex((line) => line.startsWith("[..."));
  assert.equal(lines[markerIndex], `[... ${result.droppedBytes} bytes of output omitted ...]`);
  const head = lines.slice(0, markerIndex).join("\n") + "\n";
  const tail = lines.slice(markerIndex + 1).join("\n");
  assert.ok(full.startsWith(head) && head.startsWith("1\n2\n"));
  assert.ok(full.endsWith(tail) && tail.endsWith("9999\n10000\n"));
  const kept = new TextEncoder().encode(head + tail).length;
  assert.ok(kept <= 1000);
  assert.equal(kept + result.droppedBytes, full.length);
});

Deno.test("DirectSandbox.runShell() never splits a UTF-8 character, in stream chunks or at the cut", async () => {
  const sandbox = new DirectSandbox();
  const result = await sandbox.runShell(
    "for i in $(seq 1 3000); do printf '日本語😀'; done; printf 'é' >&2",
    options({ maxOutputBytes: 777 }),
  );
  assert.ok(!result.output.includes("\uFFFD"));
  assert.ok(result.droppedBytes > 0);
  const small = await sandbox.runShell("printf '😀%.0s' $(seq 1 5000)", options());
  assert.equal(small.output, "😀".repeat(5000));
});

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

Deno.test("DirectSandbox.spawnShell() streams interleaved output and settles with the exit status", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "reasonix_none_" }));
  try {
    const process = new DirectSandbox().spawnShell("pwd; echo $GREETING; echo err >&2; exit 4", {
      cwd: dir,
      env: { GREETING: "hello", PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    });
    assert.ok(process.pid > 0);
    const [output, status] = await Promise.all([readAll(process.output), process.status]);
    assert.equal(output, `${dir}\nhello\nerr\n`);
    assert.deepEqual(status, { exitCode: 4, signal: null });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("DirectSandbox.spawnShell() kill() signals the group and the shell's leftovers die with it", async () => {
  const sandbox = new DirectSandbox();
  const left = sandbox.spawnShell("sleep 100 & echo $!", { cwd: "/" });
  const [leftOutput, leftStatus] = await Promise.all([readAll(left.output), left.status]);
  assert.deepEqual(leftStatus, { exitCode: 0, signal: null });
  assert.equal(await isGoneSoon(Number(leftOutput.trim())), true);

  const running = sandbox.spawnShell("sleep 100 & echo $!; wait", { cwd: "/" });
  const reader = running.output.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  running.kill("SIGTERM");
  while (!(await reader.read()).done) {
    // drain
  }
  assert.deepEqual(await running.status, { exitCode: null, signal: "SIGTERM" });
  assert.equal(await isGoneSoon(Number(first.trim())), true);
});
