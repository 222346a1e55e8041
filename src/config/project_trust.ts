/**
 * @module
 * `reasonix trust`: the SHA-256 of the exact bytes of a workspace's reasonix.toml that the user
 * approved, kept under `projectConfigs` in `<home>/trust.json` and keyed by the workspace's real path.
 * Any edit to the file changes the digest, so the approval stops applying until it is given again.
 */
import { resolve } from "node:path";
import type { Paths } from "./paths.ts";
import { readTrustFile, writeTrustFile } from "./trust.ts";

export type ProjectTrust = "trusted" | "untrusted" | "changed";

interface StoredProjectConfig {
  file: string;
  sha256: string;
  trustedAt: string;
}

export async function projectConfigDigest(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function projectTrust(paths: Paths, workspace: string, sha256: string): Promise<ProjectTrust> {
  const stored = await storedFor(paths, workspace).catch(() => undefined);
  if (stored === undefined) return "untrusted";
  return stored.sha256 === sha256 ? "trusted" : "changed";
}

/** The digest recorded for `workspace`, if any (for `reasonix trust --show` and doctor). */
export async function trustedDigest(paths: Paths, workspace: string): Promise<string | undefined> {
  return (await storedFor(paths, workspace).catch(() => undefined))?.sha256;
}

export async function trustProjectConfig(
  paths: Paths,
  workspace: string,
  approved: { file: string; sha256: string },
  now: Date = new Date(),
): Promise<void> {
  const trust = await readTrustFile(paths.trustFile);
  const key = await workspaceKey(workspace);
  const entry: StoredProjectConfig = { ...approved, trustedAt: now.toISOString() };
  trust.projectConfigs = { ...tableOf(trust.projectConfigs), [key]: entry };
  await writeTrustFile(paths.trustFile, trust);
}

/** Forgets the approval; false when there was none. */
export async function revokeProjectConfig(paths: Paths, workspace: string): Promise<boolean> {
  const trust = await readTrustFile(paths.trustFile);
  const key = await workspaceKey(workspace);
  const table = tableOf(trust.projectConfigs);
  if (!Object.hasOwn(table, key)) return false;
  delete table[key];
  trust.projectConfigs = table;
  await writeTrustFile(paths.trustFile, trust);
  return true;
}

async function storedFor(paths: Paths, workspace: string): Promise<StoredProjectConfig | undefined> {
  const trust = await readTrustFile(paths.trustFile);
  const entry = tableOf(trust.projectConfigs)[await workspaceKey(workspace)];
  if (typeof entry !== "object" || entry === null) return undefined;
  const sha256 = (entry as Record<string, unknown>).sha256;
  return typeof sha256 === "string" ? entry as StoredProjectConfig : undefined;
}

function tableOf(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? { ...value as Record<string, unknown> }
    : {};
}

export async function workspaceKey(workspace: string): Promise<string> {
  try {
    return await Deno.realPath(workspace);
  } catch {
    return resolve(workspace);
  }
}
