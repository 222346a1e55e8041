/**
 * @module
 * Operations that do not need a model: read and change config, approve a project provider's key.
 * They live here so every face offers the same behaviour.
 */
import { resolve } from "node:path";
import { loadConfig } from "../config/load.ts";
import { getConfigValue, setConfigKey } from "../config/edit.ts";
import { launchDirectory, type Paths, processEnv, resolvePaths } from "../config/paths.ts";
import { approveKeyPairing } from "../config/trust.ts";
import { keyPairingFor } from "../config/credentials.ts";
import { ReasonixError } from "../lib/errors.ts";
import { existingDir } from "./workspace_dir.ts";

export interface AdminContext {
  workspace: string;
  paths: Paths;
}

export async function adminContext(dir?: string): Promise<AdminContext> {
  const workspace = await existingDir(resolve(launchDirectory(), dir ?? "."), "--dir");
  return { workspace, paths: resolvePaths(processEnv()) };
}

export async function configGet(ctx: AdminContext, key: string): Promise<unknown> {
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  return getConfigValue(config, key);
}

/** Edits one key of the project file (or the global one) in place, keeping everything else. */
export async function configSet(
  ctx: AdminContext,
  options: { key: string; value: string; global: boolean },
): Promise<string> {
  const file = options.global ? ctx.paths.globalConfigFile : resolve(ctx.workspace, "reasonix.toml");
  await setConfigKey(file, options.key, options.value);
  await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  return file;
}

/** Approves sending a key to a provider that the project's reasonix.toml declares. */
export async function trustProviderKey(ctx: AdminContext, providerName: string): Promise<string> {
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const provider = config.providers.find((p) => p.name === providerName);
  if (!provider) {
    throw new ReasonixError("config.unknown_provider", `Cannot find provider "${providerName}"`, {
      hint: `Known providers: ${config.providers.map((p) => p.name).join(", ")}`,
    });
  }
  const pairing = keyPairingFor(provider);
  await approveKeyPairing(ctx.paths, ctx.workspace, pairing);
  return `Approved: ${pairing.apiKeyEnv} may be sent to ${pairing.host} for provider "${provider.name}" ` +
    `in ${ctx.workspace}`;
}

/** With each session's `/rename` title, first message and turn count. */
