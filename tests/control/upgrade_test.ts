import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import {
  compareVersions,
  installKind,
  manifestUrl,
  upgrade,
  type UpgradeRequest,
} from "../../src/control/upgrade.ts";
import { DEFAULT_MANIFEST_URL, PLATFORMS } from "../../src/lib/platforms.ts";
import { parseArgs, release } from "../../scripts/release.ts";

const LINUX = PLATFORMS.find((entry) => entry.key === "linux-x64")!;
const OLD = "#!/bin/sh\necho old reasonix\n";
const NEW = "#!/bin/sh\necho new reasonix\n";

interface Fixture {
  dir: string;
  url: string;
  requests: string[];
  serve(manifest: unknown): void;
  archiveSha: string;
  install(relative: string): Promise<string>;
  close(): Promise<void>;
}

/** A release of NEW built by scripts/release.ts, served with a manifest from 127.0.0.1. */
async function fixture(): Promise<Fixture> {
  const dir = await Deno.makeTempDir({ prefix: "reasonix-upgrade-" });
  await Deno.mkdir(join(dir, "dist", LINUX.target), { recursive: true });
  await Deno.writeTextFile(join(dir, "dist", LINUX.target, "reasonix"), NEW);
  await Deno.writeTextFile(join(dir, "LICENSE"), "license\n");
  await release(parseArgs([
    ...["--dist", join(dir, "dist"), "--out", join(dir, "release"), "--platform", "linux-x64"],
    ...["--license", join(dir, "LICENSE"), "--readme", join(dir, "LICENSE")],
  ]));
  const archive = await Deno.readFile(join(dir, "release", LINUX.archive));
  const requests: string[] = [];
  let manifest: unknown = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    requests.push(path);
    if (path === "/latest.json") return Response.json(manifest);
    if (path === `/${LINUX.archive}`) return new Response(archive);
    return new Response("not found", { status: 404 });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  return {
    dir,
    url,
    requests,
    serve: (value) => manifest = value,
    archiveSha: createHash("sha256").update(archive).digest("hex"),
    async install(relative) {
      const path = join(dir, relative);
      await Deno.mkdir(join(path, ".."), { recursive: true });
      await Deno.writeTextFile(path, OLD, { mode: 0o755 });
      return path;
    },
    async close() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

function manifestOf(f: Fixture, version: string, sha256 = f.archiveSha) {
  return {
    version,
    assets: { "linux-x64": { name: LINUX.archive, url: `${f.url}/${LINUX.archive}`, sha256 } },
  };
}

function request(f: Fixture, executable: string, extra: Partial<UpgradeRequest> = {}): UpgradeRequest {
  return {
    manifestUrl: `${f.url}/latest.json`,
    currentVersion: "0.1.0",
    executable,
    platform: LINUX,
    ...extra,
  };
}

function entries(dir: string): string[] {
  return [...Deno.readDirSync(dir)].map((entry) => entry.name).sort();
}

Deno.test("upgrade replaces the binary with the verified one from the release archive", async () => {
  const f = await fixture();
  try {
    const bin = await f.install("bin/reasonix");
    f.serve(manifestOf(f, "0.2.0"));
    const outcome = await upgrade(request(f, bin));
    assert.equal(outcome.status, "upgraded", outcome.message);
    assert.equal(await Deno.readTextFile(bin), NEW);
    assert.equal((await Deno.stat(bin)).mode! & 0o777, 0o755);
    assert.deepEqual(entries(join(f.dir, "bin")), ["reasonix"]);
  } finally {
    await f.close();
  }
});

Deno.test("a checksum mismatch is refused and nothing is replaced", async () => {
  const f = await fixture();
  try {
    const bin = await f.install("bin/reasonix");
    f.serve(manifestOf(f, "0.2.0", "0".repeat(64)));
    const outcome = await upgrade(request(f, bin));
    assert.equal(outcome.status, "failed");
    assert.match(
      outcome.message,
      /^Refusing to upgrade: the SHA-256 of reasonix-linux-x64\.tar\.gz is [0-9a-f]{64}/,
    );
    assert.match(outcome.message, /nothing was replaced$/);
    assert.equal(await Deno.readTextFile(bin), OLD);
    assert.deepEqual(entries(join(f.dir, "bin")), ["reasonix"]);
    assert.ok(f.requests.includes(`/${LINUX.archive}`));
  } finally {
    await f.close();
  }
});

Deno.test("--check reports a newer release without downloading it; same version is up to date", async () => {
  const f = await fixture();
  try {
    const bin = await f.install("bin/reasonix");
    f.serve(manifestOf(f, "0.2.0"));
    const check = await upgrade(request(f, bin, { check: true }));
    assert.equal(check.status, "available");
    assert.equal(check.message, "reasonix v0.2.0 is available (this is v0.1.0)");
    f.serve(manifestOf(f, "0.1.0"));
    const same = await upgrade(request(f, bin));
    assert.equal(same.status, "up_to_date");
    assert.deepEqual(f.requests, ["/latest.json", "/latest.json"]);
    assert.equal(await Deno.readTextFile(bin), OLD);
  } finally {
    await f.close();
  }
});

Deno.test("--force reinstalls the same version", async () => {
  const f = await fixture();
  try {
    const bin = await f.install("bin/reasonix");
    f.serve(manifestOf(f, "0.1.0"));
    assert.equal((await upgrade(request(f, bin, { force: true }))).status, "upgraded");
    assert.equal(await Deno.readTextFile(bin), NEW);
  } finally {
    await f.close();
  }
});

Deno.test("npm and Homebrew installs get their manager's command and are left alone", async () => {
  const f = await fixture();
  try {
    f.serve(manifestOf(f, "0.2.0"));
    const cases = [
      ["lib/node_modules/@reasonix/cli-linux-x64/bin/reasonix", "npm install -g reasonix@latest"],
      ["opt/homebrew/Caskroom/reasonix/0.1.0/reasonix", "brew upgrade --cask reasonix"],
    ];
    for (const [path, advice] of cases) {
      const bin = await f.install(path!);
      const outcome = await upgrade(request(f, bin));
      assert.equal(outcome.status, "managed");
      assert.ok(outcome.message.includes(advice!), outcome.message);
      assert.equal(await Deno.readTextFile(bin), OLD);
      const check = await upgrade(request(f, bin, { check: true }));
      assert.ok(check.message.includes(advice!), check.message);
    }
    assert.ok(!f.requests.includes(`/${LINUX.archive}`));
  } finally {
    await f.close();
  }
});

Deno.test("a manifest that cannot be read is an error naming the URL", async () => {
  const f = await fixture();
  try {
    const bin = await f.install("bin/reasonix");
    await assert.rejects(
      upgrade(request(f, bin, { manifestUrl: `${f.url}/missing.json` })),
      new RegExp(`^ReasonixError: Cannot read the release manifest at ${f.url}/missing\\.json: HTTP 404$`),
    );
  } finally {
    await f.close();
  }
});

Deno.test("install kinds, versions and the manifest URL", () => {
  assert.equal(installKind("/usr/local/lib/node_modules/@reasonix/cli-darwin-arm64/bin/reasonix"), "npm");
  assert.equal(installKind("C:\\npm\\node_modules\\@reasonix\\cli-win32-x64\\bin\\reasonix.exe"), "npm");
  assert.equal(installKind("/usr/local/Cellar/reasonix/1.0.0/bin/reasonix"), "homebrew");
  assert.equal(installKind("/usr/bin/deno"), "source");
  assert.equal(installKind("/home/me/.local/bin/reasonix"), "binary");
  assert.equal(compareVersions("0.10.0", "0.9.9"), 1);
  assert.equal(compareVersions("v1.2.3", "1.2.3"), 0);
  assert.equal(compareVersions("1.2.3", "1.3.0"), -1);
  assert.equal(manifestUrl({}), DEFAULT_MANIFEST_URL);
  assert.equal(
    manifestUrl({ REASONIX_UPDATE_URL: "http://127.0.0.1:1/m.json" }),
    "http://127.0.0.1:1/m.json",
  );
});
