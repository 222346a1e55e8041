/**
 * Builds the npm packages with scripts/build_npm.ts around a linux-x64 binary (the test fixture
 * tests/fixtures/fake_reasonix_binary.sh, or REASONIX_TEST_BINARY) and installs the tarballs offline
 * with `npm install -g --prefix`, the way a user's `npm i -g reasonix` lays them out.
 */
import { join, resolve } from "node:path";
import { buildNpm, type BuiltPackage } from "../../scripts/build_npm.ts";
import { PLATFORMS } from "../../src/lib/platforms.ts";

export const FIXTURE_BINARY = resolve(import.meta.dirname!, "../fixtures/fake_reasonix_binary.sh");
const LINUX_X64 = PLATFORMS.find((entry) => entry.key === "linux-x64")!;

export interface Built {
  root: string;
  packages: BuiltPackage[];
  tarball(name: string): string;
}

/** Six fake dist/<target>/ folders holding `binary` (or only linux-x64 when `onlyLinux`). */
export async function buildFixturePackages(binary: string, onlyLinux = false): Promise<Built> {
  const root = await Deno.makeTempDir({ prefix: "reasonix-npm-" });
  const platforms = onlyLinux ? [LINUX_X64] : [...PLATFORMS];
  for (const entry of platforms) {
    await Deno.mkdir(join(root, "dist", entry.target), { recursive: true });
    await Deno.copyFile(binary, join(root, "dist", entry.target, entry.binary));
  }
  await Deno.writeTextFile(join(root, "LICENSE"), "Test license text\n");
  const packages = await buildNpm({
    distDir: join(root, "dist"),
    outDir: join(root, "npm"),
    licenseFile: join(root, "LICENSE"),
    platforms,
  });
  return {
    root,
    packages,
    tarball: (name) => packages.find((built) => built.name === name)!.tarball,
  };
}

/** `npm install -g` offline; an unreachable registry proves nothing is downloaded. */
export async function npmInstall(options: { prefix: string; cache: string; tarballs: string[] }) {
  const run = await new Deno.Command("npm", {
    args: [
      "install",
      "--global",
      "--offline",
      "--no-audit",
      "--no-fund",
      "--registry",
      "http://127.0.0.1:9/",
      "--prefix",
      options.prefix,
      "--cache",
      options.cache,
      ...options.tarballs,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!run.success) throw new Error(`npm install failed: ${new TextDecoder().decode(run.stderr)}`);
}
