/**
 * @module
 * Finds a provider's API key: the process environment first, then `<home>/.env`. A provider declared
 * in a project `reasonix.toml` gets a key only for a host the user already sends that key to, or after
 * the user approved the pairing for this workspace (`reasonix trust-key`) or trusted the exact bytes of
 * the file that declares it (`reasonix trust`): a cloned repository must not be able to redirect
 * the user's key to a server of its choosing. Key values are never logged or put in messages.
 */
import { ReasonixError } from "../lib/errors.ts";
import { parseDotenv } from "./dotenv.ts";
import type { Paths } from "./paths.ts";
import { safeUrl } from "./schema.ts";
import { isKeyPairingApproved, type KeyPairing } from "./trust.ts";
import type { ProviderConfig, ResolvedConfig } from "./types.ts";

export interface Credential {
  key?: string;
  source: "env" | "dotenv" | "none";
}

export interface CredentialOptions {
  config: ResolvedConfig;
  paths: Paths;
  env: Record<string, string>;
  workspace: string;
}

export async function resolveCredential(
  provider: ProviderConfig,
  options: CredentialOptions,
): Promise<Credential> {
  const found = provider.apiKeyEnv === "" ? undefined : await lookUpKey(provider.apiKeyEnv, options);
  if (found === undefined) {
    if (isLoopback(provider.baseUrl)) return { source: "none" };
    throw missingKey(provider, options.paths);
  }
  if (provider.source === "project" && !(await keyAllowed(provider, options))) {
    throw untrusted(provider);
  }
  return found;
}

/** The pairing `reasonix trust-key <provider>` approves for a project provider. */
export function keyPairingFor(provider: ProviderConfig): KeyPairing {
  return { provider: provider.name, host: hostOf(provider.baseUrl), apiKeyEnv: provider.apiKeyEnv };
}

async function lookUpKey(name: string, options: CredentialOptions): Promise<Credential | undefined> {
  const fromEnv = options.env[name];
  if (fromEnv !== undefined && fromEnv.trim() !== "") return { key: fromEnv.trim(), source: "env" };
  let text: string;
  try {
    text = await Deno.readTextFile(options.paths.envFile);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new ReasonixError(
      "config.read",
      `Cannot read "${options.paths.envFile}": ${(error as Error).message}`,
    );
  }
  const fromFile = parseDotenv(text).get(name)?.trim();
  return fromFile ? { key: fromFile, source: "dotenv" } : undefined;
}

async function keyAllowed(provider: ProviderConfig, options: CredentialOptions): Promise<boolean> {
  if (usesUserHost(provider, options.config)) return true;
  // Trusting the whole file (`reasonix trust`) covers its providers, for exactly those bytes.
  const project = options.config.project;
  if (project?.trust === "trusted" && project.file === provider.file) return true;
  return await isKeyPairingApproved(options.paths, options.workspace, keyPairingFor(provider));
}

/** True when the user's own config already sends this provider's key to its host and scheme. */
export function usesUserHost(provider: ProviderConfig, config: ResolvedConfig): boolean {
  const origin = originOf(provider.baseUrl);
  const userProviders = config.userProviders ??
    config.providers.filter((candidate) => candidate.source !== "project");
  return userProviders.some((trusted) =>
    trusted.source !== "project" && trusted.apiKeyEnv === provider.apiKeyEnv &&
    originOf(trusted.baseUrl) === origin
  );
}

function untrusted(provider: ProviderConfig): ReasonixError {
  const host = hostOf(provider.baseUrl);
  return new ReasonixError(
    "config.untrusted_provider_key",
    `Cannot send "${provider.apiKeyEnv}" to provider "${provider.name}" declared in "${provider.file}": ` +
      `host "${host}" is not a host your own config uses that key for`,
    {
      hint: `If you trust this project, run \`reasonix trust-key ${provider.name}\` to allow ` +
        `${provider.apiKeyEnv} to be sent to ${host} from this workspace, or \`reasonix trust\` to ` +
        "review and trust its whole reasonix.toml",
    },
  );
}

function missingKey(provider: ProviderConfig, paths: Paths): ReasonixError {
  if (provider.apiKeyEnv === "") {
    return new ReasonixError(
      "config.missing_key",
      `Cannot authenticate provider "${provider.name}": it sets no "api_key_env"`,
      {
        hint:
          `Add api_key_env = "NAME" to the provider and set NAME in the environment or in ${paths.envFile}`,
      },
    );
  }
  return new ReasonixError(
    "config.missing_key",
    `Cannot authenticate provider "${provider.name}": "${provider.apiKeyEnv}" is not set`,
    {
      hint:
        `Set ${provider.apiKeyEnv} in the environment or add ${provider.apiKeyEnv}=... to ${paths.envFile}`,
    },
  );
}

function hostOf(baseUrl: string): string {
  return safeUrl(baseUrl)?.host.toLowerCase() ?? baseUrl;
}

/** Scheme and host: a key sent over https must not also go to the same host in plain http. */
function originOf(baseUrl: string): string {
  const url = safeUrl(baseUrl);
  return url ? `${url.protocol}//${url.host.toLowerCase()}` : baseUrl;
}

export function isLoopback(baseUrl: string): boolean {
  const host = safeUrl(baseUrl)?.hostname.toLowerCase();
  if (host === undefined) return false;
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
