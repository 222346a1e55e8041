import assert from "node:assert/strict";
import { bwrapArgs } from "../../src/sandbox/bubblewrap.ts";
import type { SandboxPolicy } from "../../src/sandbox/policy.ts";
import { sbplString, seatbeltProfile } from "../../src/sandbox/seatbelt.ts";

const POLICY: SandboxPolicy = {
  writable: ["/work/ws", "/data/extra"],
  hidden: ["/home/u/.reasonix/.env", "/work/ws/secrets"],
  tempDir: { path: "/home/u/.reasonix/tmp/session-1" },
  network: false,
};

Deno.test("bwrapArgs() binds root read-only, then the temp dir at /tmp, the roots, and the masks last", () => {
  const masks = new Map([["/home/u/.reasonix/.env", "file" as const], ["/work/ws/secrets", "dir" as const]]);
  const args = bwrapArgs(POLICY, { cwd: "/work/ws/src", masks });
  assert.deepEqual(args, [
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...["--bind", "/home/u/.reasonix/tmp/session-1", "/tmp"],
    ...["--bind", "/work/ws", "/work/ws", "--bind", "/data/extra", "/data/extra"],
    ...["--ro-bind", "/dev/null", "/home/u/.reasonix/.env"],
    ...["--tmpfs", "/work/ws/secrets", "--remount-ro", "/work/ws/secrets"],
    ...["--unshare-all", "--die-with-parent", "--new-session", "--chdir", "/work/ws/src"],
    ...["--setenv", "TMPDIR", "/tmp", "--setenv", "TMP", "/tmp", "--setenv", "TEMP", "/tmp", "--"],
  ]);
});

Deno.test("bwrapArgs() shares the network only when allowed and skips masks the private /tmp already hides", () => {
  const masks = new Map([["/tmp/elsewhere/.env", "file" as const], ["/tmp/ws/key", "file" as const]]);
  const args = bwrapArgs({ ...POLICY, writable: ["/tmp/ws"], network: true }, { cwd: "/tmp/ws", masks });
  assert.ok(args.includes("--share-net"));
  assert.ok(!args.includes("/tmp/elsewhere/.env"));
  assert.ok(args.join(" ").includes("--ro-bind /dev/null /tmp/ws/key"));
  assert.ok(args.indexOf("/tmp") < args.indexOf("/tmp/ws"), "the workspace is bound over the private /tmp");
});

Deno.test("seatbeltProfile() denies writes but to the roots and temp dir, hides paths, and cuts the network", () => {
  assert.equal(
    seatbeltProfile(POLICY),
    [
      "(version 1)",
      "(allow default)",
      "(deny file-write*)",
      "(allow file-write*",
      '  (subpath "/work/ws")',
      '  (subpath "/data/extra")',
      '  (subpath "/home/u/.reasonix/tmp/session-1")',
      '  (literal "/dev/null")',
      '  (literal "/dev/zero")',
      '  (regex #"^/dev/tty")',
      '  (regex #"^/dev/fd/"))',
      "(deny file-read* file-write*",
      '  (subpath "/home/u/.reasonix/.env")',
      '  (subpath "/work/ws/secrets"))',
      "(deny network*)",
      "",
    ].join("\n"),
  );
});

Deno.test("seatbeltProfile() leaves the network open when allowed and escapes quotes in paths", () => {
  const profile = seatbeltProfile({ ...POLICY, hidden: [], writable: ['/w/a"b\\c'], network: true });
  assert.doesNotMatch(profile, /network|file-read/);
  assert.match(profile, /\(subpath "\/w\/a\\"b\\\\c"\)/);
  assert.equal(sbplString('x"y'), '"x\\"y"');
});
