import assert from "node:assert/strict";
import { bwrapArgs } from "../../src/sandbox/bubblewrap.ts";
import type { BwrapLayout } from "../../src/sandbox/_bwrap_layout.ts";
import type { SandboxPolicy } from "../../src/sandbox/policy.ts";
import { sbplString, seatbeltProfile } from "../../src/sandbox/seatbelt.ts";

const POLICY: SandboxPolicy = {
  writable: ["/work/ws", "/data/extra"],
  hidden: ["/home/u/.reasonix/.env", "/work/ws/secrets"],
  tempDir: { path: "/home/u/.reasonix/tmp/session-1" },
  readOnly: ["/work/ws/.git/hooks", "/work/ws/.git/config"],
  network: false,
};

function layout(overrides: Partial<BwrapLayout> = {}): BwrapLayout {
  return {
    masks: new Map(),
    readOnly: [],
    placeholders: [],
    pins: [],
    lockedFiles: [],
    hostTmp: false,
    ...overrides,
  };
}

const HARDENED = ["--unshare-all", "--unshare-user", "--disable-userns", "--cap-drop", "ALL"];

Deno.test("bwrapArgs() binds root read-only, then /tmp, the roots, pins, read-only paths and the masks last", () => {
  const masks = new Map([["/home/u/.reasonix/.env", "file" as const], [
    "/work/ws/a/secrets",
    "dir" as const,
  ]]);
  const call = {
    cwd: "/work/ws/src",
    seccompFd: "3",
    layout: layout({
      masks,
      pins: ["/work/ws/a"],
      readOnly: ["/work/ws/.git/config"],
      placeholders: ["/work/ws/.git/hooks"],
    }),
  };
  assert.deepEqual(bwrapArgs(POLICY, call), [
    ...["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"],
    ...["--bind", "/home/u/.reasonix/tmp/session-1", "/tmp"],
    ...["--bind", "/work/ws", "/work/ws", "--bind", "/data/extra", "/data/extra"],
    ...["--bind", "/work/ws/a", "/work/ws/a"],
    ...["--ro-bind", "/work/ws/.git/config", "/work/ws/.git/config"],
    ...["--tmpfs", "/work/ws/.git/hooks", "--remount-ro", "/work/ws/.git/hooks"],
    ...["--ro-bind", "/dev/null", "/home/u/.reasonix/.env"],
    ...["--tmpfs", "/work/ws/a/secrets", "--remount-ro", "/work/ws/a/secrets"],
    ...HARDENED,
    ...["--seccomp", "3", "--die-with-parent", "--new-session", "--chdir", "/work/ws/src"],
    ...["--setenv", "TMPDIR", "/tmp", "--setenv", "TMP", "/tmp", "--setenv", "TEMP", "/tmp", "--"],
  ]);
});

Deno.test("bwrapArgs() with a root under /tmp keeps the host's /tmp and binds the temp dir at its own path", () => {
  const masks = new Map([["/tmp/elsewhere/.env", "file" as const], ["/home/u/.reasonix", "dir" as const]]);
  const policy = { ...POLICY, writable: ["/tmp/ws"], network: true };
  const args = bwrapArgs(policy, { cwd: "/tmp/ws", layout: layout({ masks, hostTmp: true }) });
  const tmp = "/home/u/.reasonix/tmp/session-1";
  assert.ok(args.includes("--share-net"));
  assert.ok(!args.includes("--seccomp"));
  assert.ok(!args.includes("/tmp"), "no private dir over /tmp");
  assert.ok(args.join(" ").includes("--ro-bind /dev/null /tmp/elsewhere/.env"));
  assert.ok(
    args.join(" ").includes(`--tmpfs /home/u/.reasonix --bind ${tmp} ${tmp} --remount-ro /home/u/.reasonix`),
    "the temp dir is bound inside the masked home before it turns read-only",
  );
  assert.ok(args.join(" ").includes(`--setenv TMPDIR ${tmp}`));
});

Deno.test("bwrapArgs() skips masks the private /tmp already hides", () => {
  const masks = new Map([["/tmp/elsewhere/.env", "file" as const]]);
  const args = bwrapArgs(POLICY, { cwd: "/work/ws", layout: layout({ masks }) });
  assert.ok(!args.includes("/tmp/elsewhere/.env"));
});

Deno.test("seatbeltProfile() denies writes but to the roots and temp dir, keeps read-only and hidden paths in place, and cuts the network", () => {
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
      "(deny file-write*",
      '  (subpath "/work/ws/.git/hooks")',
      '  (subpath "/work/ws/.git/config"))',
      "(deny file-read* file-write*",
      '  (subpath "/home/u/.reasonix/.env")',
      '  (subpath "/work/ws/secrets"))',
      "(deny file-write-unlink",
      '  (literal "/work/ws/secrets")',
      '  (literal "/work/ws/.git/hooks")',
      '  (literal "/work/ws/.git")',
      '  (literal "/work/ws/.git/config"))',
      "(deny network*)",
      "",
    ].join("\n"),
  );
});

Deno.test("seatbeltProfile() leaves the network open when allowed and escapes quotes in paths", () => {
  const profile = seatbeltProfile({
    ...POLICY,
    hidden: [],
    readOnly: [],
    writable: ['/w/a"b\\c'],
    network: true,
  });
  assert.doesNotMatch(profile, /network|file-read/);
  assert.match(profile, /\(subpath "\/w\/a\\"b\\\\c"\)/);
  assert.equal(sbplString('x"y'), '"x\\"y"');
});
