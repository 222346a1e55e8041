/**
 * @module
 * The lowest layer: what Reasonix does with no config file at all. Only `DEEPSEEK_API_KEY` is needed.
 */
import type { ProviderConfig, ResolvedConfig } from "./types.ts";

export const DEFAULT_MODEL = "deepseek-flash";
export const DEEPSEEK_BASE_URL = "https://api.deepseek.com";
/** Used for a custom provider that does not set `context_window`. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

function deepseek(name: string, model: string): ProviderConfig {
  return {
    name,
    kind: "openai",
    baseUrl: DEEPSEEK_BASE_URL,
    models: [model],
    defaultModel: model,
    apiKeyEnv: "DEEPSEEK_API_KEY",
    contextWindow: 1_000_000,
    maxOutputTokens: 0,
    reasoningProtocol: "deepseek",
    source: "builtin",
  };
}

export function builtinProviders(): ProviderConfig[] {
  return [deepseek("deepseek-flash", "deepseek-flash"), deepseek("deepseek-pro", "deepseek-v4-pro")];
}

/** A fresh copy of the defaults; callers may mutate it. */
export function builtinConfig(): ResolvedConfig {
  const providers = builtinProviders();
  return {
    defaultModel: DEFAULT_MODEL,
    providers,
    userProviders: providers.map((provider) => ({ ...provider })),
    modelOverrides: {},
    // 0 = no explicit cap on tool rounds; the agent decides.
    agent: { maxSteps: 0, effort: "auto" },
    tools: { enabled: [], bashTimeoutSeconds: 120, outputBudgetBytes: 32_000 },
    permissions: { mode: "ask", allow: [], ask: [], deny: [] },
    sandbox: { allowWrite: [], forbidRead: [], network: true },
    network: { maxRetries: 3, retryBaseMs: 1000 },
    billing: { currency: "auto" },
    files: [],
    warnings: [],
  };
}
