import assert from "node:assert/strict";
import { join, resolve } from "node:path";
import { watchParent } from "../../src/sandbox/parent_watch.ts";
import { eventually } from "../support/processes.ts";

const FIXTURE = resolve(import.meta.dirname!, "fixtures/parent_watch.ts");

function fixture(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "--no-prompt", "-A", FIXTURE, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
}

Deno.test("watchParent: a child whose parent is killed with SIGKILL learns it within a poll or two", {
  ignore: Deno.build.os !== "linux",
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix-watch-" });
  const flag = join(dir, "flag");
  const middle = fixture(["middle", flag]);
  try {
    const reader = middle.stdout.pipeThrough(new TextDecoderStream()).getReader();
    const { value } = await reader.read();
    reader.releaseLock();
    const watcher = Number(value!.trim());
    // Usually killed while the watch runs; on a slow machine before it starts, which it must notice too.
    await new Promise((r) => setTimeout(r, 1000));
    middle.kill("SIGKILL");
    await middle.status;
    const killedAt = performance.now();
    const gone = await eventually(() => !alive(watcher), 2000, 20);
    assert.ok(gone, "the orphaned child is still running");
    assert.equal(await Deno.readTextFile(flag), "parent gone");
    assert.ok(performance.now() - killedAt < 2000);
  } finally {
    await middle.stdout.cancel().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("watchParent keeps nothing alive on its own", async () => {
  const idle = fixture(["idle"]);
  const status = await idle.status;
  await idle.stdout.cancel();
  assert.equal(status.code, 0);
});

Deno.test("watchParent calls back at once when the parent is already another process", () => {
  let calls = 0;
  const stop = watchParent(Deno.ppid + 1, () => calls++);
  stop();
  assert.equal(calls, 1);
});

function alive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
}
