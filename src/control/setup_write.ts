/**
 * @module
 * What `reasonix setup` writes besides the key: `default_model` in the user's config (or, when asked, the
 * project's `reasonix.toml`), and a custom OpenAI-compatible provider as a `[[providers]]` entry of the
 * user's config. Existing files are edited key by key, never rewritten; a key never goes into a config file.
 */
import { join } from "node:path";
import { DEFAULT_CONTEXT_WINDOW, defaultCacheTtlMinutes } from "../config/builtin.ts";
import { isLoopback } from "../config/credentials.ts";
import { appendTomlTable, setTomlKey } from "../config/edit.ts";
import { parseToml, PROJECT_CONFIG_FILE } from "../config/load.ts";
import type { Paths } from "../config/paths.ts";
import { safeUrl } from "../config/schema.ts";
import type { ProviderConfig } from "../config/types.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import type { ModelChoice } from "./setup.ts";

export type ConfigWrite =
  | { kind: "created"; file: string }
  | { kind: "set"; file: string; key: string }
  | { kind: "unchanged"; file: string };

/** Where `default_model` goes: the user's config, or `<workspace>/reasonix.toml` with `--project`. */
export function configTarget(paths: Paths, project: { workspace: string } | undefined): string {
  return project ? join(project.workspace, PROJECT_CONFIG_FILE) : paths.globalConfigFile;
}

/** Sets `default_model` in `file`, creating it when absent; every other byte of an existing file stays. */
export async function writeDefaultModel(file: string, defaultModel: string): Promise<ConfigWrite> {
  const text = await readOptional(file);
  if (text === undefined) {
    const body = `# Written by \`reasonix setup\`; keys: reasonix config path\n` +
      `default_model = ${JSON.stringify(defaultModel)}\n`;
    await writeFileAtomic(file, body, { mkdirs: true });
    return { kind: "created", file };
  }
  if (parseToml(text, file).default_model === defaultModel) return { kind: "unchanged", file };
  await writeFileAtomic(file, setTomlKey(text, "default_model", defaultModel));
  return { kind: "set", file, key: "default_model" };
}

export interface CustomProvider {
  baseUrl: string;
  model: string;
  apiKeyEnv: string;
}

/** The provider as the config loader would read it, named after its host (`api.example.com` → `example`). */
export function customChoice(custom: CustomProvider, known: readonly ProviderConfig[]): ModelChoice {
  const baseUrl = custom.baseUrl.trim().replace(/\/+$/, "");
  const again = known.find((provider) =>
    provider.baseUrl === baseUrl && provider.models.includes(custom.model)
  );
  const name = again?.name ?? uniqueName(hostName(baseUrl), known.map((provider) => provider.name));
  const host = safeUrl(baseUrl)?.hostname ?? "";
  const provider: ProviderConfig = {
    name,
    kind: "openai",
    baseUrl,
    models: [custom.model],
    defaultModel: custom.model,
    apiKeyEnv: custom.apiKeyEnv,
    contextWindow: DEFAULT_CONTEXT_WINDOW,
    cacheTtlMinutes: defaultCacheTtlMinutes(baseUrl),
    maxOutputTokens: 0,
    reasoningProtocol: host === "deepseek.com" || host.endsWith(".deepseek.com") ? "deepseek" : "none",
    source: "global",
  };
  return { ref: name, model: custom.model, provider };
}

/** A local server (127.0.0.1, localhost) may take no key: its variable is then simply left unset. */
export function keyOptional(baseUrl: string): boolean {
  return isLoopback(baseUrl.trim());
}

/** A variable name for the provider's key: `EXAMPLE_API_KEY`. */
export function keyEnvFor(baseUrl: string): string {
  return `${hostName(baseUrl).toUpperCase().replace(/[^A-Z0-9]+/g, "_")}_API_KEY`.replace(/^(\d)/, "_$1");
}

/** Appends the provider to the user's config, unless an identical entry is already there. */
export async function writeCustomProvider(paths: Paths, choice: ModelChoice): Promise<ConfigWrite> {
  const file = paths.globalConfigFile;
  const text = await readOptional(file) ?? "";
  const { provider } = choice;
  const existing = parseToml(text, file).providers;
  const same = Array.isArray(existing) &&
    existing.some((entry: Record<string, unknown>) =>
      entry.name === provider.name && entry.base_url === provider.baseUrl && entry.model === choice.model
    );
  if (same) return { kind: "unchanged", file };
  const edited = appendTomlTable(text, "providers", {
    name: provider.name,
    kind: "openai",
    base_url: provider.baseUrl,
    model: choice.model,
    api_key_env: provider.apiKeyEnv,
  });
  await writeFileAtomic(file, edited, { mkdirs: true });
  return text === ""
    ? { kind: "created", file }
    : { kind: "set", file, key: `[[providers]] ${provider.name}` };
}

function hostName(baseUrl: string): string {
  const hostname = safeUrl(baseUrl)?.hostname.toLowerCase() ?? "";
  if (hostname === "" || hostname === "localhost" || /^[\d.]+$|^\[/.test(hostname)) return "custom";
  const labels = hostname.split(".").filter((label) => label !== "");
  const named = (labels.length > 1 ? labels.slice(0, -1) : labels).filter((label) => !GENERIC.has(label));
  const clean = (named.at(-1) ?? "custom").replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "");
  return clean === "" ? "custom" : clean;
}

const GENERIC = new Set(["api", "www", "gateway"]);

function uniqueName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let index = 2;; index++) {
    if (!taken.includes(`${base}-${index}`)) return `${base}-${index}`;
  }
}

async function readOptional(file: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}
