/**
 * @module
 * `reasonix upgrade`: reads the release manifest (latest.json from scripts/release.ts), compares
 * versions, downloads the archive for this platform, verifies its SHA-256 against the manifest and only
 * then swaps the binary in with an atomic rename. npm and Homebrew installs are left to their manager.
 */
import { basename } from "node:path";
import { ReasonixError } from "../lib/errors.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { readFromArchive } from "../lib/archive.ts";
import { DEFAULT_MANIFEST_URL, type Platform } from "../lib/platforms.ts";
import { processEnv } from "../config/paths.ts";

export interface ManifestAsset {
  name: string;
  url: string;
  sha256: string;
  size?: number;
}

export interface Manifest {
  version: string;
  assets: Record<string, ManifestAsset>;
}

export type InstallKind = "npm" | "homebrew" | "source" | "binary";

export interface UpgradeRequest {
  manifestUrl: string;
  currentVersion: string;
  /** The running binary (Deno.execPath()). */
  executable: string;
  platform: Platform | undefined;
  check?: boolean;
  force?: boolean;
  fetch?: typeof fetch;
}

export type UpgradeStatus = "up_to_date" | "available" | "upgraded" | "managed" | "failed";

export interface UpgradeOutcome {
  status: UpgradeStatus;
  message: string;
  latest?: string;
}

/** REASONIX_UPDATE_URL overrides the default manifest (GitHub's latest release). */
export function manifestUrl(env: Record<string, string | undefined> = processEnv()): string {
  return env.REASONIX_UPDATE_URL?.trim() || DEFAULT_MANIFEST_URL;
}

export function installKind(executable: string): InstallKind {
  const path = executable.replaceAll("\\", "/");
  if (/\/node_modules\/@reasonix\/cli-[^/]+\//.test(path)) return "npm";
  if (/\/(Caskroom|Cellar)\//.test(path)) return "homebrew";
  if (/^deno(\.exe)?$/i.test(basename(path))) return "source";
  return "binary";
}

const ADVICE: Record<Exclude<InstallKind, "binary">, string> = {
  npm: "This Reasonix was installed with npm: run `npm install -g reasonix@latest`",
  homebrew: "This Reasonix was installed with Homebrew: run `brew upgrade --cask reasonix`",
  source: "This Reasonix runs from a source checkout: update it with `git pull`",
};

export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.replace(/^v/, "").split(/[.+-]/).slice(0, 3).map((n) => Number(n) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) {
    const diff = (x[i] ?? 0) - (y[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

export async function fetchManifest(url: string, fetcher: typeof fetch = fetch): Promise<Manifest> {
  const response = await fetcher(url).catch((error: Error) => {
    throw new ReasonixError(
      "upgrade.network",
      `Cannot reach the release manifest at ${url}: ${error.message}`,
    );
  });
  if (!response.ok) {
    await response.body?.cancel();
    throw new ReasonixError(
      "upgrade.network",
      `Cannot read the release manifest at ${url}: HTTP ${response.status}`,
    );
  }
  const manifest = await response.json() as Partial<Manifest>;
  if (typeof manifest.version !== "string" || typeof manifest.assets !== "object" || !manifest.assets) {
    throw new ReasonixError(
      "upgrade.manifest",
      `Cannot read the release manifest at ${url}: no version or assets`,
    );
  }
  return manifest as Manifest;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function upgrade(request: UpgradeRequest): Promise<UpgradeOutcome> {
  const fetcher = request.fetch ?? fetch;
  const manifest = await fetchManifest(request.manifestUrl, fetcher);
  const latest = manifest.version;
  const newer = compareVersions(latest, request.currentVersion) > 0;
  const kind = installKind(request.executable);
  const advice = kind === "binary" ? "" : `\n${ADVICE[kind]}`;
  if (!newer && !request.force) {
    return { status: "up_to_date", latest, message: `reasonix v${request.currentVersion} is up to date` };
  }
  if (request.check) {
    const message = newer
      ? `reasonix v${latest} is available (this is v${request.currentVersion})${advice}`
      : `reasonix v${request.currentVersion} is up to date`;
    return { status: newer ? "available" : "up_to_date", latest, message };
  }
  if (kind !== "binary") {
    return { status: kind === "source" ? "failed" : "managed", latest, message: advice.slice(1) };
  }
  return await replaceBinary(request, { manifest, fetcher });
}

async function replaceBinary(
  request: UpgradeRequest,
  context: { manifest: Manifest; fetcher: typeof fetch },
): Promise<UpgradeOutcome> {
  const { manifest, fetcher } = context;
  const latest = manifest.version;
  const failed = (message: string): UpgradeOutcome => ({ status: "failed", latest, message });
  const asset = request.platform ? manifest.assets[request.platform.key] : undefined;
  if (!request.platform || !asset) {
    return failed(`Cannot upgrade: release v${latest} has no archive for this platform`);
  }
  const response = await fetcher(asset.url).catch((error: Error) => {
    throw new ReasonixError("upgrade.network", `Cannot download ${asset.url}: ${error.message}`);
  });
  if (!response.ok) {
    await response.body?.cancel();
    return failed(`Cannot download ${asset.url}: HTTP ${response.status}`);
  }
  const archive = new Uint8Array(await response.arrayBuffer());
  const actual = await sha256Hex(archive);
  if (actual !== asset.sha256.toLowerCase()) {
    return failed(
      `Refusing to upgrade: the SHA-256 of ${asset.name} is ${actual}, but the manifest says ` +
        `${asset.sha256}; nothing was replaced`,
    );
  }
  const binary = await readFromArchive(archive, { archiveName: asset.name, file: request.platform.binary });
  if (!binary) return failed(`Cannot upgrade: ${asset.name} holds no ${request.platform.binary}`);
  const target = await Deno.realPath(request.executable);
  try {
    await swapIn(target, binary);
  } catch (error) {
    if (!(error instanceof Deno.errors.PermissionDenied)) throw error;
    return failed(
      `Cannot replace ${target}: permission denied (rerun with write access); nothing was replaced`,
    );
  }
  return {
    status: "upgraded",
    latest,
    message: `Upgraded reasonix v${request.currentVersion} to v${latest} (${target})`,
  };
}

/** Windows cannot rename over a running executable, but it can rename the running one aside. */
async function swapIn(target: string, binary: Uint8Array): Promise<void> {
  if (Deno.build.os !== "windows") return await writeFileAtomic(target, binary);
  await Deno.rename(target, `${target}.old`);
  try {
    await writeFileAtomic(target, binary);
  } catch (error) {
    await Deno.rename(`${target}.old`, target);
    throw error;
  }
}
