import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { PLATFORMS } from "../../src/lib/platforms.ts";
import { VERSION } from "../../src/lib/version.ts";
import { parseArgs, release } from "../../scripts/release.ts";

const FIXTURE = join(import.meta.dirname!, "../fixtures/fake_reasonix_binary.sh");

/** dist/<target>/ with the fixture script, made distinct per platform so every checksum differs. */
async function fixtureDist(root: string): Promise<Map<string, Uint8Array>> {
  const fixture = await Deno.readTextFile(FIXTURE);
  const binaries = new Map<string, Uint8Array>();
  for (const entry of PLATFORMS) {
    const bytes = new TextEncoder().encode(`${fixture}# fixture for ${entry.key}\n`);
    await Deno.mkdir(join(root, "dist", entry.target), { recursive: true });
    await Deno.writeFile(join(root, "dist", entry.target, entry.binary), bytes);
    binaries.set(entry.key, bytes);
  }
  await Deno.writeTextFile(join(root, "LICENSE"), "fixture license\n");
  await Deno.writeTextFile(join(root, "README.md"), "# fixture readme\n");
  return binaries;
}

async function tool(command: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(command, { args, cwd, stdout: "piped", stderr: "piped" }).output();
  assert.ok(out.success, `${command} ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout);
}

Deno.test("release.ts writes six archives, SHA256SUMS, latest.json and the cask", async () => {
  const root = await Deno.makeTempDir({ prefix: "reasonix-release-" });
  try {
    const binaries = await fixtureDist(root);
    const out = join(root, "release");
    await release(parseArgs([
      ...["--dist", join(root, "dist"), "--out", out, "--repository", "example/reasonix"],
      ...["--license", join(root, "LICENSE"), "--readme", join(root, "README.md")],
    ]));
    const names = [...Deno.readDirSync(out)].map((entry) => entry.name).sort();
    assert.deepEqual(
      names,
      [...PLATFORMS.map((p) => p.archive), "SHA256SUMS", "latest.json", "reasonix.rb"].sort(),
    );

    // Independent check: coreutils verifies every line of SHA256SUMS against the files.
    const checked = await tool("sha256sum", ["-c", "SHA256SUMS"], out);
    assert.equal(checked.trim().split("\n").length, 6);

    const manifest = JSON.parse(await Deno.readTextFile(join(out, "latest.json")));
    assert.equal(manifest.version, VERSION);
    for (const entry of PLATFORMS) {
      const asset = manifest.assets[entry.key];
      const bytes = await Deno.readFile(join(out, entry.archive));
      assert.equal(asset.sha256, createHash("sha256").update(bytes).digest("hex"));
      assert.equal(asset.size, bytes.length);
      assert.equal(
        asset.url,
        `https://github.com/example/reasonix/releases/download/v${VERSION}/${entry.archive}`,
      );
      const extracted = join(root, "x", entry.key);
      await Deno.mkdir(extracted, { recursive: true });
      if (entry.archive.endsWith(".zip")) await tool("unzip", ["-q", join(out, entry.archive)], extracted);
      else await tool("tar", ["-xzf", join(out, entry.archive)], extracted);
      const files = [...Deno.readDirSync(extracted)].map((file) => file.name).sort();
      assert.deepEqual(files, [entry.binary, "LICENSE", "README.md"].sort());
      assert.deepEqual(await Deno.readFile(join(extracted, entry.binary)), binaries.get(entry.key));
      if (!entry.archive.endsWith(".zip")) {
        assert.equal((await Deno.stat(join(extracted, entry.binary))).mode! & 0o111, 0o111);
      }
    }
    const cask = await Deno.readTextFile(join(out, "reasonix.rb"));
    assert.match(cask, new RegExp(`sha256 "${manifest.assets["darwin-arm64"].sha256}"`));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("release.ts stops with the missing binary's path", async () => {
  const root = await Deno.makeTempDir({ prefix: "reasonix-release-" });
  try {
    await Deno.writeTextFile(join(root, "LICENSE"), "x\n");
    const options = parseArgs([
      "--dist",
      join(root, "dist"),
      "--out",
      join(root, "out"),
      "--license",
      join(root, "LICENSE"),
    ]);
    await assert.rejects(
      release(options),
      (error: Error) => error.message.includes(join(root, "dist", "x86_64-unknown-linux-gnu", "reasonix")),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
