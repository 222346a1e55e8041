import assert from "node:assert/strict";
import { join } from "node:path";
import { BubblewrapSandbox } from "../../src/sandbox/bubblewrap.ts";
import { box, BWRAP_MISSING, options, visibleTempDir } from "./_bwrap.ts";
import { exists } from "../support/files.ts";

const test = (name: string, fn: () => Promise<void>) => Deno.test({ name, ignore: BWRAP_MISSING, fn });

test("BubblewrapSandbox writes in the workspace and nowhere else", async () => {
  await using b = await box();
  const inside = await b.sh("echo in > made.txt && cat made.txt");
  assert.equal(inside.exitCode, 0, inside.output);
  assert.equal(await Deno.readTextFile(join(b.ws, "made.txt")), "in\n");
  const out = await b.sh(`echo out > ${join(b.outside, "escaped.txt")}`);
  assert.notEqual(out.exitCode, 0);
  assert.match(out.output, /Read-only file system/);
  assert.equal(await exists(join(b.outside, "escaped.txt")), false);
});

test("BubblewrapSandbox keeps /tmp private: the host's /tmp never sees the write", async () => {
  await using b = await box();
  const name = `reasonix-host-tmp-${crypto.randomUUID()}`;
  const run = await b.sh(`echo secret > /tmp/${name} && cat /tmp/${name} && echo "$TMPDIR"`);
  assert.equal(run.exitCode, 0, run.output);
  assert.equal(run.output, "secret\n/tmp\n");
  assert.equal(await exists(join("/tmp", name)), false);
  assert.equal(await Deno.readTextFile(join(b.tempDir.path, name)), "secret\n");
});

test("BubblewrapSandbox stops a write through a workspace symlink that points outside", async () => {
  await using b = await box();
  await Deno.symlink(b.outside, join(b.ws, "link"));
  await Deno.symlink("/tmp", join(b.ws, "tmplink"));
  const name = `reasonix-link-${crypto.randomUUID()}`;
  const run = await b.sh(`echo x > link/escaped.txt; echo x > tmplink/${name}; echo done`);
  assert.match(run.output, /Read-only file system/);
  assert.equal(await exists(join(b.outside, "escaped.txt")), false);
  assert.equal(await exists(join("/tmp", name)), false);
});

test("BubblewrapSandbox masks hidden files and directories, even inside the workspace", async () => {
  const home = await visibleTempDir("reasonix-bwrap-home-");
  try {
    await Deno.writeTextFile(join(home, ".env"), "DEEPSEEK_API_KEY=sk-leak\n");
    await using b = await box();
    await Deno.mkdir(join(b.ws, "secrets"));
    await Deno.writeTextFile(join(b.ws, "secrets", "key.pem"), "PRIVATE");
    await Deno.writeTextFile(join(b.ws, "token.txt"), "TOKEN");
    const hidden = [join(home, ".env"), join(b.ws, "secrets"), join(b.ws, "token.txt")];
    const masked = new BubblewrapSandbox({ ...b.policy, hidden });
    const run = await masked.runShell(
      `cat ${join(home, ".env")}; ls secrets; cat token.txt; echo x > secrets/new; echo end`,
      options(b.ws),
    );
    assert.doesNotMatch(run.output, /sk-leak|PRIVATE|TOKEN|key\.pem/);
    assert.match(run.output, /Read-only file system/);
    assert.match(run.output, /end\n$/);
    assert.equal(await Deno.readTextFile(join(b.ws, "token.txt")), "TOKEN");
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});

test("BubblewrapSandbox shares the session temp dir between commands, and a new session gets another", async () => {
  await using b = await box();
  const first = await b.sh("echo kept > /tmp/shared.txt");
  assert.equal(first.exitCode, 0, first.output);
  assert.equal((await b.sh("cat /tmp/shared.txt")).output, "kept\n");
  const background = b.sandbox.spawnShell("cat /tmp/shared.txt", { cwd: b.ws });
  assert.equal(await new Response(background.output).text(), "kept\n");
  await background.status;
  await using other = await box();
  const isolated = await other.sh("cat /tmp/shared.txt");
  assert.notEqual(isolated.exitCode, 0);
  const old = b.tempDir.path;
  await b.tempDir.rotate();
  assert.notEqual(b.tempDir.path, old);
  assert.equal(await exists(old), false);
  assert.notEqual((await b.sh("cat /tmp/shared.txt")).exitCode, 0);
});

test("BubblewrapSandbox cuts the network unless the policy allows it", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const accepted = (async () => {
    for await (const conn of listener) conn.close();
  })().catch(() => {});
  const probe = `exec 3<>/dev/tcp/127.0.0.1/${listener.addr.port} && echo connected`;
  await using off = await box();
  const denied = await off.sh(probe);
  assert.notEqual(denied.exitCode, 0);
  assert.doesNotMatch(denied.output, /connected/);
  await using on = await box({ network: true });
  const allowed = await on.sh(probe);
  assert.equal(allowed.exitCode, 0, allowed.output);
  assert.equal(allowed.output, "connected\n");
  listener.close();
  await accepted;
});

test("BubblewrapSandbox runs commands in their own PID namespace", async () => {
  await using b = await box();
  const run = await b.sh("ls /proc | grep -c '^[0-9]'");
  assert.equal(run.exitCode, 0, run.output);
  assert.ok(Number(run.output.trim()) < 5, `processes visible: ${run.output}`);
});

test("BubblewrapSandbox kills the whole sandbox on timeout, background children included", async () => {
  await using b = await box();
  const marker = `${300 + Math.floor(Math.random() * 1000)}.${Date.now() % 1000}`;
  const run = await b.sh(`sleep ${marker} & echo started; sleep ${marker}`, { timeoutMs: 200 });
  assert.equal(run.timedOut, true);
  assert.match(run.output, /started/);
  assert.equal(await untilNoProcess(["sleep", marker]), true);
  const controller = new AbortController();
  const pending = b.sh("echo go; sleep 300", { signal: controller.signal });
  controller.abort();
  assert.equal((await pending).aborted, true);
});

test("BubblewrapSandbox background jobs can be killed", async () => {
  await using b = await box();
  const job = b.sandbox.spawnShell("echo up; exec sleep 300", { cwd: b.ws });
  const reader = job.output.getReader();
  assert.equal(new TextDecoder().decode((await reader.read()).value), "up\n");
  job.kill("SIGTERM");
  const status = await job.status;
  assert.notEqual(status.exitCode, 0);
  reader.releaseLock();
  await job.output.cancel();
});

/** Waits (boundedly) until no host process runs exactly `argv`; the kernel reaps a killed namespace lazily. */
async function untilNoProcess(argv: string[]): Promise<boolean> {
  const wanted = argv.join("\0") + "\0";
  for (let attempt = 0; attempt < 100; attempt++) {
    let found = false;
    for await (const entry of Deno.readDir("/proc")) {
      if (!/^\d+$/.test(entry.name)) continue;
      const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
      if (cmdline === wanted) found = true;
    }
    if (!found) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

test("BubblewrapSandbox masks a hidden path given through a symlink", async () => {
  await using b = await box();
  await Deno.mkdir(join(b.outside, "keys"));
  await Deno.writeTextFile(join(b.outside, "keys", "id"), "PRIVATE");
  await Deno.symlink(join(b.outside, "keys"), join(b.ws, "keys"));
  const masked = new BubblewrapSandbox({ ...b.policy, hidden: [join(b.ws, "keys")] });
  const run = await masked.runShell(`cat keys/id ${join(b.outside, "keys", "id")}; echo end`, options(b.ws));
  assert.doesNotMatch(run.output, /PRIVATE/);
  assert.match(run.output, /end\n$/);
});
