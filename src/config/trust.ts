/**
 * @module
 * Per-workspace approvals to send a user's API key to a host that a project `reasonix.toml` names.
 * They live under `keyPairings` in `<home>/trust.json`; any other content of that file is preserved.
 */
import { resolve } from "node:path";
import { ReasonixError } from "../lib/errors.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import type { Paths } from "./paths.ts";

export interface KeyPairing {
  provider: string;
  host: string;
  apiKeyEnv: string;
}

interface StoredPairing extends KeyPairing {
  approvedAt: string;
}

export type TrustFile = Record<string, unknown> & { keyPairings?: Record<string, StoredPairing[]> };

export async function isKeyPairingApproved(
  paths: Paths,
  workspace: string,
  pairing: KeyPairing,
): Promise<boolean> {
  let trust: TrustFile;
  try {
    trust = await readTrustFile(paths.trustFile);
  } catch {
    // An unreadable trust file approves nothing.
    return false;
  }
  return pairingsOf(trust, workspace).some((stored) => samePairing(stored, pairing));
}

export async function approveKeyPairing(paths: Paths, workspace: string, pairing: KeyPairing): Promise<void> {
  const trust = await readTrustFile(paths.trustFile);
  const key = resolve(workspace);
  const existing = pairingsOf(trust, workspace).filter((stored) => stored.provider !== pairing.provider);
  const approved: StoredPairing = { ...pairing, approvedAt: new Date().toISOString() };
  trust.keyPairings = { ...trust.keyPairings, [key]: [...existing, approved] };
  await writeTrustFile(paths.trustFile, trust);
}

/** Replaces trust.json atomically, readable by the user only (an older, wider mode is narrowed). */
export async function writeTrustFile(file: string, trust: TrustFile): Promise<void> {
  await writeFileAtomic(file, JSON.stringify(trust, null, 2) + "\n", {
    mode: 0o600,
    mkdirs: true,
    staged: true,
  });
  if (Deno.build.os !== "windows") await Deno.chmod(file, 0o600);
}

export async function readTrustFile(file: string): Promise<TrustFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new ReasonixError("config.trust_file", `Cannot read "${file}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ReasonixError("config.trust_file", `Cannot read "${file}": not valid JSON`, { cause: error });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ReasonixError("config.trust_file", `Cannot read "${file}": expected a JSON object`);
  }
  return parsed as TrustFile;
}

function pairingsOf(trust: TrustFile, workspace: string): StoredPairing[] {
  const list = trust.keyPairings?.[resolve(workspace)];
  return Array.isArray(list) ? list.filter((item) => typeof item === "object" && item !== null) : [];
}

function samePairing(a: KeyPairing, b: KeyPairing): boolean {
  return a.provider === b.provider && a.host.toLowerCase() === b.host.toLowerCase() &&
    a.apiKeyEnv === b.apiKeyEnv;
}
