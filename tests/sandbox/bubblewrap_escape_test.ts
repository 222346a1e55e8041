/**
 * Escapes an attacker tries once they run code in the sandbox: capabilities, unmounting a mask,
 * remounting / writable, new namespaces. Run as root (as in CI and containers) and as `nobody`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BubblewrapSandbox } from "../../src/sandbox/bubblewrap.ts";
import { type Box, box, BWRAP_MISSING, IS_ROOT, options, unprivilegedBwrap } from "./_bwrap.ts";

const test = (name: string, fn: () => Promise<void>) => Deno.test({ name, ignore: BWRAP_MISSING, fn });

const ATTACK = (env: string, outside: string) =>
  [
    "grep -E '^(CapEff|CapBnd|NoNewPrivs|Seccomp):' /proc/self/status",
    `umount ${env}; echo "umount=$?"`,
    `echo "env=[$(cat ${env} 2>&1)]"`,
    `mount -o remount,bind,rw /; echo "remount=$?"`,
    `mount -t tmpfs none ${outside}; echo "mount=$?"`,
    `echo x > ${join(outside, "bashrc")}; echo "write=$?"`,
    `unshare -U true; echo "userns=$?"`,
    `unshare -m true; echo "mountns=$?"`,
    `unshare -r -m sh -c 'umount ${env}; cat ${env}'; echo "nested=$?"`,
  ].join("\n");

async function attack(b: Box, bwrap: string): Promise<string> {
  await Deno.writeTextFile(join(b.outside, ".env"), "DEEPSEEK_API_KEY=sk-leak\n");
  await Deno.chmod(join(b.outside, ".env"), 0o644);
  const sandbox = new BubblewrapSandbox({ ...b.policy, hidden: [join(b.outside, ".env")] }, bwrap);
  const run = await sandbox.runShell(ATTACK(join(b.outside, ".env"), b.outside), options(b.ws));
  return run.output;
}

function assertContained(output: string) {
  assert.match(output, /^CapEff:\t0000000000000000$/m);
  assert.match(output, /^CapBnd:\t0000000000000000$/m);
  assert.match(output, /^NoNewPrivs:\t1$/m);
  assert.match(output, /^Seccomp:\t2$/m);
  assert.doesNotMatch(output, /sk-leak/);
  for (const step of ["umount", "remount", "mount", "write", "userns", "mountns", "nested"]) {
    assert.doesNotMatch(output, new RegExp(`^${step}=0$`, "m"), `${step} succeeded:\n${output}`);
  }
  assert.match(output, /Read-only file system/);
}

test(`BubblewrapSandbox leaves no capability, mount or namespace to a command run by ${IS_ROOT ? "root" : "a user"}`, async () => {
  await using b = await box();
  const output = await attack(b, "bwrap");
  assertContained(output);
  assert.equal(await Deno.readTextFile(join(b.outside, ".env")), "DEEPSEEK_API_KEY=sk-leak\n");
  await assert.rejects(() => Deno.lstat(join(b.outside, "bashrc")));
});

test("BubblewrapSandbox contains an unprivileged user the same way", async () => {
  await using b = await box();
  const output = await attack(b, await unprivilegedBwrap(b));
  assertContained(output);
  if (IS_ROOT) assert.match(output, /must be superuser|Operation not permitted|permission denied/);
});

const PROBE = [
  "import ctypes, platform",
  "libc = ctypes.CDLL(None, use_errno=True)",
  'keyctl = {"x86_64": 250, "aarch64": 219}[platform.machine()]',
  'print("unshare", libc.unshare(0x10000000), ctypes.get_errno())',
  'print("keyctl", libc.syscall(keyctl, 0, -3, 0), ctypes.get_errno())',
].join("; ");

test("BubblewrapSandbox refuses new namespaces and keyrings through seccomp, and still forks", async () => {
  await using b = await box();
  const run = await b.sh([
    `python3 -c '${PROBE}' 2>&1 || echo no-python`,
    "sh -c 'exit 0' && echo fork-ok",
  ].join("\n"));
  assert.match(run.output, /fork-ok/);
  if (!/no-python/.test(run.output)) {
    assert.match(run.output, /^unshare -1 1$/m);
    assert.match(run.output, /^keyctl -1 1$/m);
  }
});
