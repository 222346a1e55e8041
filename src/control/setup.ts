/**
 * @module
 * The setup wizard's behaviour, without its prompts: whether setup is needed, which models to offer,
 * storing the key in `<home>/.env` (mode 0600, other lines kept) and testing it with one tiny request.
 * What it writes to config files is in setup_write.ts.
 */
import { loadConfig } from "../config/load.ts";
import { resolveModel } from "../config/models.ts";
import { resolveCredential } from "../config/credentials.ts";
import type { Paths } from "../config/paths.ts";
import { parseDotenv } from "../config/dotenv.ts";
import type { ProviderConfig } from "../config/types.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { ReasonixError } from "../lib/errors.ts";
import { ProviderError } from "../provider/errors.ts";
import { createProvider } from "../provider/registry.ts";
import { explainTestFailure } from "./setup_failure.ts";

export interface SetupContext {
  workspace: string;
  paths: Paths;
  env: Record<string, string>;
}

export interface ModelChoice {
  /** What `default_model` is set to: the provider name. */
  ref: string;
  model: string;
  provider: ProviderConfig;
}

/** True when the default model's provider has no usable key: `reasonix` should start the wizard. */
export async function needsSetup(context: SetupContext): Promise<boolean> {
  const config = await loadConfig({ workspace: context.workspace, paths: context.paths });
  const { provider } = resolveModel(config);
  try {
    await resolveCredential(provider, { config, ...context });
    return false;
  } catch (error) {
    if (error instanceof ReasonixError && error.code === "config.missing_key") return true;
    throw error;
  }
}

export async function modelChoices(context: SetupContext): Promise<ModelChoice[]> {
  const config = await loadConfig({ workspace: context.workspace, paths: context.paths });
  return config.providers.map((provider) => ({ ref: provider.name, model: provider.defaultModel, provider }));
}

/** The model `reasonix` uses today, from every config layer: setup need not write what is already so. */
export async function currentDefaultModel(context: SetupContext): Promise<string> {
  return (await loadConfig({ workspace: context.workspace, paths: context.paths })).defaultModel;
}

/** Where the key of `envName` is already set, if anywhere. */
export async function existingKeySource(
  envName: string,
  context: SetupContext,
): Promise<"env" | "dotenv" | null> {
  if ((context.env[envName] ?? "").trim() !== "") return "env";
  const text = await readOptional(context.paths.envFile);
  return parseDotenv(text).get(envName)?.trim() ? "dotenv" : null;
}

/** The value of `envName` from the environment or `<home>/.env`, to test a key already set; never shown. */
export async function existingKey(envName: string, context: SetupContext): Promise<string | undefined> {
  const fromEnv = (context.env[envName] ?? "").trim();
  if (fromEnv !== "") return fromEnv;
  const fromFile = parseDotenv(await readOptional(context.paths.envFile)).get(envName)?.trim();
  return fromFile === "" ? undefined : fromFile;
}

/** Sets `envName=key` in `<home>/.env`, replacing an earlier line of that key and keeping the rest. */
export async function storeKey(paths: Paths, envName: string, key: string): Promise<void> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(envName)) {
    throw new ReasonixError("config.invalid", `Cannot store a key under "${envName}": not a variable name`);
  }
  const clean = key.trim();
  if (clean === "" || /[\s"'\\]/.test(clean)) {
    throw new ReasonixError(
      "setup.bad_key",
      "Cannot store the key: it is empty or contains spaces or quotes",
    );
  }
  const assignment = new RegExp(`^\\s*(export\\s+)?${envName}\\s*=`);
  const kept = (await readOptional(paths.envFile)).split(/\r?\n/).filter((line) => !assignment.test(line));
  while (kept.length > 0 && kept.at(-1) === "") kept.pop();
  kept.push(`${envName}=${clean}`, "");
  await writeFileAtomic(paths.envFile, kept.join("\n"), { mode: 0o600, mkdirs: true, staged: true });
  await Deno.chmod(paths.envFile, 0o600);
}

export type KeyTest = { ok: true; model: string } | { ok: false; message: string };

export interface KeyTestOptions {
  /** The environment snapshot: the proxy variables fetch honours, to name a proxy in the way. */
  env: Record<string, string>;
  /** A dead network can hang a connection for minutes; the wizard gives up sooner. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

const KEY_TEST_TIMEOUT_MS = 20_000;

/** One tiny request through the real provider; a failure says in plain words what failed, never the key. */
export async function testKey(choice: ModelChoice, key: string, options: KeyTestOptions): Promise<KeyTest> {
  const apiKey = key.trim();
  const provider = createProvider(choice.provider, { apiKey, maxRetries: 0, retryBaseMs: 0 });
  const timeout = AbortSignal.timeout(options.timeoutMs ?? KEY_TEST_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  try {
    await provider.stream({
      model: choice.model,
      messages: [{ role: "user", content: "Reply with the single word: ok" }],
      toolsJson: "[]",
      effort: "disabled",
      maxTokens: 8,
    }, { signal });
    return { ok: true, model: choice.model };
  } catch (error) {
    const scene = { baseUrl: choice.provider.baseUrl, env: options.env, key: apiKey };
    const timedOut = timeout.aborted && !options.signal?.aborted;
    return { ok: false, message: explainTestFailure(timedOut ? new TimeoutFailure() : error, scene) };
  }
}

/** Our own deadline passed: reported as the host not answering in time. */
class TimeoutFailure extends ProviderError {
  constructor() {
    super("provider.timeout", "no answer in time");
  }
}

async function readOptional(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}
