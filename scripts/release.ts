/**
 * `deno run -A scripts/release.ts [--dist DIR] [--out DIR] [--repository OWNER/NAME] [--base-url URL]
 * [--license FILE] [--readme FILE] [--platform KEY ...]`: from DIR/<target>/ (deno task compile) writes
 * OUT/reasonix-<key>.tar.gz (.zip for Windows) holding the binary, LICENSE and README.md, then
 * OUT/SHA256SUMS (`sha256sum -c` format), OUT/latest.json (read by `reasonix upgrade`) and
 * OUT/reasonix.rb (the Homebrew cask, when both macOS archives are present). Archives use system tar/zip.
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { type Platform, PLATFORMS, RELEASE_REPOSITORY } from "../src/lib/platforms.ts";
import { VERSION } from "../src/lib/version.ts";
import { caskFromManifest, type ReleaseManifest } from "./cask.ts";

const ROOT = resolve(import.meta.dirname!, "..");

export interface ReleaseOptions {
  distDir: string;
  outDir: string;
  repository: string;
  baseUrl: string;
  licenseFile: string;
  readmeFile: string;
  platforms: Platform[];
}

const FLAGS: Record<string, keyof ReleaseOptions> = {
  "--dist": "distDir",
  "--out": "outDir",
  "--repository": "repository",
  "--base-url": "baseUrl",
  "--license": "licenseFile",
  "--readme": "readmeFile",
};

export function parseArgs(args: string[]): ReleaseOptions {
  const given: Record<string, string> = {};
  const platforms: Platform[] = [];
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i]!, args[i + 1]];
    if (value === undefined) throw new TypeError(`Missing value for ${flag}`);
    if (flag === "--platform") {
      const found = PLATFORMS.find((entry) => entry.key === value);
      if (!found) throw new TypeError(`Unknown platform "${value}"`);
      platforms.push(found);
    } else if (FLAGS[flag]) given[FLAGS[flag]] = value;
    else throw new TypeError(`Unknown argument "${flag}": use ${Object.keys(FLAGS).join(", ")}, --platform`);
  }
  const repository = given.repository ?? RELEASE_REPOSITORY;
  return {
    distDir: resolve(given.distDir ?? join(ROOT, "dist")),
    outDir: resolve(given.outDir ?? join(ROOT, "dist", "release")),
    repository,
    baseUrl: given.baseUrl ?? `https://github.com/${repository}/releases/download/v${VERSION}`,
    licenseFile: resolve(given.licenseFile ?? join(ROOT, "LICENSE")),
    readmeFile: resolve(given.readmeFile ?? join(ROOT, "README.md")),
    platforms: platforms.length > 0 ? platforms : [...PLATFORMS],
  };
}

async function run(command: string, options: { args: string[]; cwd: string }): Promise<void> {
  const out = await new Deno.Command(command, { ...options, stdout: "piped", stderr: "piped" }).output();
  if (!out.success) {
    throw new Error(`${command} ${options.args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Stages binary, LICENSE and README.md flat in a folder, then archives that folder's contents. */
async function archive(entry: Platform, options: ReleaseOptions): Promise<string> {
  const binary = join(options.distDir, entry.target, entry.binary);
  await Deno.stat(binary).catch(() => {
    throw new Error(`Cannot package ${entry.key}: ${binary} is missing (run deno task compile)`);
  });
  const stage = join(options.outDir, ".stage", entry.key);
  await Deno.mkdir(stage, { recursive: true });
  await Deno.copyFile(binary, join(stage, entry.binary));
  await Deno.chmod(join(stage, entry.binary), 0o755);
  await Deno.copyFile(options.licenseFile, join(stage, "LICENSE"));
  await Deno.copyFile(options.readmeFile, join(stage, "README.md"));
  const output = join(options.outDir, entry.archive);
  await Deno.remove(output).catch(() => {});
  const files = [entry.binary, "LICENSE", "README.md"];
  if (entry.archive.endsWith(".zip")) await run("zip", { args: ["-q", "-X", output, ...files], cwd: stage });
  else {
    const owner = ["--owner=0", "--group=0", "--numeric-owner"];
    await run("tar", { args: ["-czf", output, ...owner, ...files], cwd: stage });
  }
  return output;
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

export async function release(options: ReleaseOptions): Promise<ReleaseManifest> {
  await Deno.mkdir(options.outDir, { recursive: true });
  const manifest: ReleaseManifest & { date: string } = {
    version: VERSION,
    date: new Date().toISOString(),
    assets: {},
  };
  try {
    for (const entry of options.platforms) {
      const path = await archive(entry, options);
      const bytes = await Deno.readFile(path);
      manifest.assets[entry.key] = {
        name: entry.archive,
        url: `${options.baseUrl.replace(/\/$/, "")}/${entry.archive}`,
        sha256: sha256(bytes),
        size: bytes.length,
        target: entry.target,
      };
    }
  } finally {
    await Deno.remove(join(options.outDir, ".stage"), { recursive: true }).catch(() => {});
  }
  const sums = Object.values(manifest.assets).map((asset) => `${asset.sha256}  ${asset.name}\n`).sort();
  await Deno.writeTextFile(join(options.outDir, "SHA256SUMS"), sums.join(""));
  await Deno.writeTextFile(join(options.outDir, "latest.json"), JSON.stringify(manifest, null, 2) + "\n");
  if (manifest.assets["darwin-arm64"] && manifest.assets["darwin-x64"]) {
    const homepage = `https://github.com/${options.repository}`;
    await Deno.writeTextFile(join(options.outDir, "reasonix.rb"), caskFromManifest(manifest, { homepage }));
  }
  return manifest;
}

if (import.meta.main) {
  try {
    const options = parseArgs(Deno.args);
    const manifest = await release(options);
    for (const asset of Object.values(manifest.assets)) console.log(`${asset.sha256}  ${asset.name}`);
    console.log(`wrote SHA256SUMS and latest.json for v${manifest.version} to ${options.outDir}`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
