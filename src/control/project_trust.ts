/**
 * @module
 * `reasonix trust`: review what a workspace's reasonix.toml would loosen, then record (or revoke) the
 * user's approval of its exact bytes. The digest recorded is the one of the bytes that were reviewed,
 * so an edit between the review and the approval is never trusted by accident.
 */
import { join } from "node:path";
import { keyPairingFor, usesUserHost } from "../config/credentials.ts";
import { loadConfig, PROJECT_CONFIG_FILE } from "../config/load.ts";
import {
  type ProjectTrust,
  revokeProjectConfig,
  trustedDigest,
  trustProjectConfig,
} from "../config/project_trust.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { ReasonixError } from "../lib/errors.ts";
import type { AdminContext } from "./admin.ts";

export interface TrustReview {
  workspace: string;
  file: string;
  sha256: string;
  trust: ProjectTrust;
  /** What trusting the file applies: loosening keys with their line, then providers that get a key. */
  unlocks: string[];
}

export async function reviewProjectTrust(ctx: AdminContext): Promise<TrustReview> {
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const project = config.project;
  if (!project) {
    const file = join(ctx.workspace, PROJECT_CONFIG_FILE);
    const warning = config.warnings.find((w) => w.file === file);
    throw new ReasonixError(
      "usage.no_project_config",
      warning ? warning.message : `Cannot find "${file}": this workspace has no ${PROJECT_CONFIG_FILE}`,
    );
  }
  return {
    workspace: ctx.workspace,
    file: project.file,
    sha256: project.sha256,
    trust: project.trust,
    unlocks: [
      ...project.unlocks.map((key) => `${key.key} (line ${key.line})`),
      ...keyedProviders(config),
    ],
  };
}

export async function approveProjectTrust(ctx: AdminContext, review: TrustReview): Promise<void> {
  await trustProjectConfig(ctx.paths, ctx.workspace, { file: review.file, sha256: review.sha256 });
}

export async function revokeProjectTrust(ctx: AdminContext): Promise<boolean> {
  return await revokeProjectConfig(ctx.paths, ctx.workspace);
}

/** The digest trust.json holds for this workspace, if any. */
export async function recordedDigest(ctx: AdminContext): Promise<string | undefined> {
  return await trustedDigest(ctx.paths, ctx.workspace);
}

export function formatTrustReview(review: TrustReview): string {
  const status = review.trust === "trusted"
    ? "trusted"
    : review.trust === "changed"
    ? "not trusted: it changed since you trusted it"
    : "not trusted";
  const lines = [`Project config: ${review.file}`, `SHA-256: ${review.sha256}`, `Status: ${status}`];
  if (review.unlocks.length === 0) {
    lines.push("It sets nothing that loosens your own settings: trusting it changes nothing today.");
  } else {
    lines.push("Trusting it lets these settings apply over your own:");
    lines.push(...review.unlocks.map((item) => `  ${item}`));
  }
  return lines.join("\n");
}

/** Project providers whose key would go to a host the user's own config does not send it to. */
function keyedProviders(config: ResolvedConfig): string[] {
  return config.providers
    .filter((p) => p.source === "project" && p.apiKeyEnv !== "" && !usesUserHost(p, config))
    .map((p) => {
      const pairing = keyPairingFor(p);
      return `providers "${p.name}": sends ${pairing.apiKeyEnv} to ${pairing.host}`;
    });
}
