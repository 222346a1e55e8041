/**
 * @module
 * The setup wizard's behaviour, without its prompts: whether setup is needed, which models to offer,
 * storing the key in `<home>/.env` (mode 0600, other lines kept), writing or completing
 * `reasonix.toml` without rewriting the user's text, and testing the key with one tiny request.
 */
import { join } from "node:path";
import { loadConfig, PROJECT_CONFIG_FILE } from "../config/load.ts";
import { resolveModel } from "../config/models.ts";
import { resolveCredential } from "../config/credentials.ts";
import type { Paths } from "../config/paths.ts";
import { parseDotenv } from "../config/dotenv.ts";
import { setTomlKey } from "../config/edit.ts";
import { parseToml } from "../config/load.ts";
import type { ProviderConfig } from "../config/types.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { ReasonixError } from "../lib/errors.ts";
import { createProvider } from "../provider/registry.ts";

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

/** Where the key of `envName` is already set, if anywhere. */
export async function existingKeySource(
  envName: string,
  context: SetupContext,
): Promise<"env" | "dotenv" | null> {
  if ((context.env[envName] ?? "").trim() !== "") return "env";
  const text = await readOptional(context.paths.envFile);
  return parseDotenv(text).get(envName)?.trim() ? "dotenv" : null;
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

export type ConfigWrite =
  | { kind: "created"; file: string }
  | { kind: "added"; file: string; keys: string[] }
  | { kind: "unchanged"; file: string };

/** Writes `<dir>/reasonix.toml`, or adds only the keys it lacks to an existing one. */
export async function writeProjectConfig(dir: string, defaultModel: string): Promise<ConfigWrite> {
  const file = join(dir, PROJECT_CONFIG_FILE);
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    const body =
      `# Written by \`reasonix setup\`; keys: reasonix config path\ndefault_model = "${defaultModel}"\n`;
    await writeFileAtomic(file, body, { mkdirs: true });
    return { kind: "created", file };
  }
  const values = parseToml(text, file);
  if (values.default_model !== undefined) return { kind: "unchanged", file };
  await writeFileAtomic(file, setTomlKey(text, "default_model", defaultModel));
  return { kind: "added", file, keys: ["default_model"] };
}

export type KeyTest = { ok: true; model: string } | { ok: false; message: string };

/** One tiny request through the real provider; the key never appears in the returned message. */
export async function testKey(choice: ModelChoice, key: string, signal?: AbortSignal): Promise<KeyTest> {
  const provider = createProvider(choice.provider, { apiKey: key.trim(), maxRetries: 0, retryBaseMs: 0 });
  try {
    await provider.stream({
      model: choice.model,
      messages: [{ role: "user", content: "Reply with the single word: ok" }],
      toolsJson: "[]",
      effort: "disabled",
      maxTokens: 8,
    }, { signal: signal ?? new AbortController().signal });
    return { ok: true, model: choice.model };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message: key.trim() === "" ? message : message.replaceAll(key.trim(), "***") };
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
