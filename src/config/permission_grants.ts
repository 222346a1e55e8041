/**
 * @module
 * "Always allow" answers, remembered per workspace under `permissionGrants` in `<home>/trust.json`
 * (never in the user's reasonix.toml). Any other content of that file is preserved.
 */
import { resolve } from "node:path";
import type { Paths } from "./paths.ts";
import { readTrustFile, type TrustFile, writeTrustFile } from "./trust.ts";

interface StoredGrant {
  rule: string;
  grantedAt: string;
}

type GrantsFile = TrustFile & { permissionGrants?: Record<string, StoredGrant[]> };

/** The rules remembered for `workspace`; an unreadable file grants nothing. */
export async function loadPermissionGrants(paths: Paths, workspace: string): Promise<string[]> {
  try {
    return grantsOf(await readTrust(paths.trustFile), workspace).map((grant) => grant.rule);
  } catch {
    return [];
  }
}

export async function addPermissionGrant(
  paths: Paths,
  workspace: string,
  rule: string,
  now: Date = new Date(),
): Promise<void> {
  const trust = await readTrust(paths.trustFile);
  const existing = grantsOf(trust, workspace);
  if (existing.some((grant) => grant.rule === rule)) return;
  const grants = [...existing, { rule, grantedAt: now.toISOString() }];
  trust.permissionGrants = { ...trust.permissionGrants, [resolve(workspace)]: grants };
  await writeTrustFile(paths.trustFile, trust);
}

async function readTrust(file: string): Promise<GrantsFile> {
  return await readTrustFile(file) as GrantsFile;
}

function grantsOf(trust: GrantsFile, workspace: string): StoredGrant[] {
  const list = trust.permissionGrants?.[resolve(workspace)];
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is StoredGrant => typeof item?.rule === "string");
}
