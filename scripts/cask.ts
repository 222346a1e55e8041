/**
 * `deno run -A scripts/cask.ts --manifest dist/release/latest.json [--out FILE]`: the Homebrew cask
 * for Reasonix, generated from the release manifest (per-arch URL and sha256 of the macOS archives).
 */
import { resolve } from "node:path";
import { RELEASE_REPOSITORY } from "../src/lib/platforms.ts";

export interface ReleaseManifest {
  version: string;
  assets: Record<string, { name: string; url: string; sha256: string; size?: number; target?: string }>;
}

function asset(manifest: ReleaseManifest, key: string) {
  const found = manifest.assets[key];
  if (!found) throw new Error(`Cannot write the cask: the manifest has no ${key} asset`);
  if (!/^[0-9a-f]{64}$/.test(found.sha256)) throw new Error(`Cannot write the cask: bad sha256 for ${key}`);
  return found;
}

function ruby(text: string): string {
  return JSON.stringify(text).replaceAll("#{", "\\#{");
}

export function caskFromManifest(
  manifest: ReleaseManifest,
  options: { homepage?: string } = {},
): string {
  const arm = asset(manifest, "darwin-arm64");
  const intel = asset(manifest, "darwin-x64");
  const homepage = options.homepage ?? `https://github.com/${RELEASE_REPOSITORY}`;
  return [
    `cask "reasonix" do`,
    `  version ${ruby(manifest.version)}`,
    ``,
    `  on_arm do`,
    `    url ${ruby(arm.url)}`,
    `    sha256 ${ruby(arm.sha256)}`,
    `  end`,
    `  on_intel do`,
    `    url ${ruby(intel.url)}`,
    `    sha256 ${ruby(intel.sha256)}`,
    `  end`,
    ``,
    `  name "Reasonix"`,
    `  desc "DeepSeek-native coding agent for the terminal"`,
    `  homepage ${ruby(homepage)}`,
    ``,
    `  binary "reasonix"`,
    `end`,
    ``,
  ].join("\n");
}

export function parseArgs(args: string[]): { manifest: string; out?: string; homepage?: string } {
  const options: { manifest?: string; out?: string; homepage?: string } = {};
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i]!, args[i + 1]];
    if (value === undefined) throw new TypeError(`Missing value for ${flag}`);
    if (flag === "--manifest") options.manifest = resolve(value);
    else if (flag === "--out") options.out = resolve(value);
    else if (flag === "--homepage") options.homepage = value;
    else throw new TypeError(`Unknown argument "${flag}": use --manifest, --out or --homepage`);
  }
  if (!options.manifest) throw new TypeError("Missing --manifest <latest.json>");
  return { ...options, manifest: options.manifest };
}

if (import.meta.main) {
  try {
    const options = parseArgs(Deno.args);
    const manifest = JSON.parse(await Deno.readTextFile(options.manifest)) as ReleaseManifest;
    const cask = caskFromManifest(manifest, options);
    if (options.out) await Deno.writeTextFile(options.out, cask);
    else console.log(cask.trimEnd());
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
