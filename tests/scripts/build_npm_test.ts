import assert from "node:assert/strict";
import { join } from "node:path";
import { npmPackageName, PLATFORMS } from "../../src/lib/platforms.ts";
import { VERSION } from "../../src/lib/version.ts";
import { buildFixturePackages, FIXTURE_BINARY } from "../npm/_install.ts";
import { buildNpm } from "../../scripts/build_npm.ts";

async function tarList(tarball: string): Promise<string[]> {
  const out = await new Deno.Command("tar", { args: ["-tzf", tarball], stdout: "piped" }).output();
  assert.ok(out.success);
  return new TextDecoder().decode(out.stdout).trim().split("\n").sort();
}

async function packedJson(tarball: string): Promise<Record<string, unknown>> {
  const args = ["-xzOf", tarball, "package/package.json"];
  const out = await new Deno.Command("tar", { args, stdout: "piped" }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

Deno.test("build_npm.ts packs six platform packages and the launcher at one version", async () => {
  const built = await buildFixturePackages(FIXTURE_BINARY);
  try {
    assert.deepEqual(built.packages.map((p) => p.name), [...PLATFORMS.map(npmPackageName), "reasonix"]);
    for (const entry of PLATFORMS) {
      const tarball = built.tarball(npmPackageName(entry));
      const json = await packedJson(tarball);
      assert.equal(json.name, npmPackageName(entry));
      assert.equal(json.version, VERSION);
      assert.deepEqual(json.os, [entry.os]);
      assert.deepEqual(json.cpu, [entry.cpu]);
      assert.equal(json.dependencies, undefined);
      assert.equal(json.license, "MIT");
      assert.deepEqual(await tarList(tarball), [
        "package/LICENSE",
        "package/README.md",
        `package/bin/${entry.binary}`,
        "package/package.json",
      ]);
      const bin = join(built.root, "npm", "packages", `cli-${entry.key}`, "bin", entry.binary);
      assert.deepEqual(await Deno.readFile(bin), await Deno.readFile(FIXTURE_BINARY));
      assert.equal((await Deno.stat(bin)).mode! & 0o111, 0o111);
    }
    const launcher = await packedJson(built.tarball("reasonix"));
    assert.equal(launcher.version, VERSION);
    assert.deepEqual(launcher.bin, { reasonix: "bin/reasonix.js" });
    assert.deepEqual(launcher.engines, { node: ">=18" });
    assert.equal(launcher.license, "MIT");
    assert.equal(launcher.dependencies, undefined);
    assert.deepEqual(
      launcher.optionalDependencies,
      Object.fromEntries(PLATFORMS.map((entry) => [npmPackageName(entry), VERSION])),
    );
    assert.deepEqual(await tarList(built.tarball("reasonix")), [
      "package/LICENSE",
      "package/README.md",
      "package/bin/reasonix.js",
      "package/package.json",
    ]);
  } finally {
    await Deno.remove(built.root, { recursive: true });
  }
});

Deno.test("the committed npm-launcher/package.json carries the version of deno.json", async () => {
  const path = join(import.meta.dirname!, "../../npm-launcher/package.json");
  const json = JSON.parse(await Deno.readTextFile(path));
  assert.equal(json.version, VERSION);
  assert.equal(json.license, "MIT");
  await Deno.stat(join(import.meta.dirname!, "../../LICENSE"));
  assert.deepEqual(Object.values(json.optionalDependencies), PLATFORMS.map(() => VERSION));
  assert.deepEqual(Object.keys(json.optionalDependencies).sort(), PLATFORMS.map(npmPackageName).sort());
});

Deno.test("build_npm.ts names the missing binary and the missing license", async () => {
  const root = await Deno.makeTempDir({ prefix: "reasonix-npm-" });
  try {
    const options = {
      distDir: join(root, "dist"),
      outDir: join(root, "npm"),
      licenseFile: join(root, "LICENSE"),
      platforms: [PLATFORMS[0]!],
    };
    await assert.rejects(buildNpm(options), /LICENSE is missing/);
    await Deno.writeTextFile(options.licenseFile, "x\n");
    await assert.rejects(
      buildNpm(options),
      /x86_64-unknown-linux-gnu\/reasonix is missing \(run deno task compile\)/,
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
