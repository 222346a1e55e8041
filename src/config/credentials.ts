/**
 * @module
 * Finds a provider's API key: the process environment first, then `<home>/.env`. A provider declared
 * in a project `reasonix.toml` gets a key only for a host the user already sends that key to, or after
 * the user approved the pairing for this workspace (`reasonix trust-key`) or trusted the exact bytes of
 * the file that declares it (`reasonix trust`): a cloned repository must not be able to redirect
 * the user's key to a server of its choosing. Key values are never logged or put in messages.
 */
import { ReasonixError } from "../lib/errors.ts";
import { type DotenvFile, readDotenv } from "./dotenv.ts";
import type { Paths } from "./paths.ts";
import { safeUrl } from "./schema.ts";
import { isKeyPairingApproved, type KeyPairing } from "./trust.ts";
import type { ProviderConfig, ResolvedConfig } from "./types.ts";

export interface Credential {
  key?: string;
  source: "env" | "dotenv" | "none";
  /** Lines of `<home>/.env` that were skipped, as `file:line: what is wrong`; absent when none. */
  warnings?: string[];
}

/** What the lookup found: a key, or whether the variable was set but empty. */
interface Lookup {
  key?: string;
  source?: "env" | "dotenv";
  setButEmpty: boolean;
  warnings: string[];
}

export interface CredentialOptions {
  config: ResolvedConfig;
  paths: Paths;
  env: Record<string, string>;
  workspace: string;
}

/**
 * An empty value is "not set", even for a loopback provider: only a variable that is absent sends no key.
 * A value with a control or non-ASCII character is refused before any request, naming where it came from.
 */
export async function resolveCredential(
  provider: ProviderConfig,
  options: CredentialOptions,
): Promise<Credential> {
  const found: Lookup = provider.apiKeyEnv === ""
    ? { setButEmpty: false, warnings: [] }
    : await lookUpKey(provider.apiKeyEnv, options);
  const warnings = found.warnings.length > 0 ? { warnings: found.warnings } : {};
  if (found.key === undefined || found.source === undefined) {
    if (isLoopback(provider.baseUrl) && !found.setButEmpty) return { source: "none", ...warnings };
    throw missingKey(provider, options.paths, found.warnings);
  }
  if (provider.source === "project" && !(await keyAllowed(provider, options))) {
    throw untrusted(provider);
  }
  return { key: found.key, source: found.source, ...warnings };
}

/** The pairing `reasonix trust-key <provider>` approves for a project provider. */
export function keyPairingFor(provider: ProviderConfig): KeyPairing {
  return { provider: provider.name, host: hostOf(provider.baseUrl), apiKeyEnv: provider.apiKeyEnv };
}

async function lookUpKey(name: string, options: CredentialOptions): Promise<Lookup> {
  const fromEnv = options.env[name];
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    return {
      key: checkedKey(fromEnv.trim(), name, "the environment"),
      source: "env",
      setButEmpty: false,
      warnings: [],
    };
  }
  const path = options.paths.envFile;
  const file = await readEnvFile(path);
  const warnings = file.problems.map((problem) => `${path}:${problem.line}: ${problem.message}`);
  const entry = file.entries.get(name);
  const value = entry?.value.trim() ?? "";
  if (entry && value !== "") {
    return {
      key: checkedKey(value, name, `${path}:${entry.line}`),
      source: "dotenv",
      setButEmpty: false,
      warnings,
    };
  }
  return { setButEmpty: fromEnv !== undefined || entry !== undefined, warnings };
}

async function readEnvFile(path: string): Promise<DotenvFile> {
  try {
    return readDotenv(await Deno.readTextFile(path));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { entries: new Map(), problems: [] };
    throw new ReasonixError("config.read", `Cannot read "${path}": ${(error as Error).message}`);
  }
}

/** A key goes into an HTTP header: a stray newline or NUL must be a config error here, not a network one. */
function checkedKey(value: string, name: string, origin: string): string {
  const bad = /[^\x20-\x7e]/.exec(value);
  if (!bad) return value;
  const code = bad[0].charCodeAt(0);
  const what = code < 0x20 || code === 0x7f
    ? "a control character (such as a newline, tab or NUL)"
    : "a character that is not printable ASCII";
  // Never the value itself: only where it is and what is wrong with it.
  throw new ReasonixError(
    "config.invalid_key",
    `Cannot use ${name} from ${origin}: its value contains ${what} at position ${bad.index + 1}`,
    { hint: `An API key is printable ASCII: set ${name} again, copied afresh from the provider` },
  );
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

function missingKey(provider: ProviderConfig, paths: Paths, problems: string[]): ReasonixError {
  // A skipped line of .env is the likeliest reason a key written there is "not set".
  const skipped = problems.length > 0 ? ` (skipped: ${problems.join("; ")})` : "";
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
        `Set ${provider.apiKeyEnv} in the environment or add ${provider.apiKeyEnv}=... to ${paths.envFile}` +
        skipped,
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
