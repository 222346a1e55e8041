/**
 * @module
 * "Always allow" answers, remembered per workspace under `permissionGrants` in `<home>/trust.json`
 * (never in the user's reasonix.toml). Any other content of that file is preserved.
 */
import { resolve } from "node:path";
import { ReasonixError } from "../lib/errors.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import type { Paths } from "./paths.ts";

interface StoredGrant {
  rule: string;
  grantedAt: string;
}

type TrustFile = Record<string, unknown> & { permissionGrants?: Record<string, StoredGrant[]> };

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
  await writeFileAtomic(paths.trustFile, JSON.stringify(trust, null, 2) + "\n", {
    mode: 0o600,
    mkdirs: true,
    staged: true,
  });
}

async function readTrust(file: string): Promise<TrustFile> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return {};
    throw new ReasonixError("config.trust_file", `Cannot read "${file}": ${(error as Error).message}`, {
      cause: error,
    });
  }
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ReasonixError("config.trust_file", `Cannot read "${file}": expected a JSON object`);
  }
  return parsed as TrustFile;
}

function grantsOf(trust: TrustFile, workspace: string): StoredGrant[] {
  const list = trust.permissionGrants?.[resolve(workspace)];
  if (!Array.isArray(list)) return [];
  return list.filter((item): item is StoredGrant => typeof item?.rule === "string");
}
