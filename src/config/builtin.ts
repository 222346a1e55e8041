/**
 * @module
 * The lowest layer: what Reasonix does with no config file at all. Only `DEEPSEEK_API_KEY` is needed.
 */
import type { ProviderConfig, ResolvedConfig } from "./types.ts";

export const DEFAULT_MODEL = "deepseek-flash";
export const DEEPSEEK_BASE_URL = "https://api.deepseek.com";
/** Used for a custom provider that does not set `context_window`. */
export const DEFAULT_CONTEXT_WINDOW = 128_000;

/** Vendors known to evict cached prefixes after minutes; DeepSeek and unknown hosts keep them for hours. */
const SHORT_CACHE_HOSTS = [/(^|\.)anthropic\.com$/, /(^|\.)dashscope(-intl)?\.aliyuncs\.com$/];
const SHORT_CACHE_TTL_MINUTES = 5;
const LONG_CACHE_TTL_MINUTES = 24 * 60;

export function defaultCacheTtlMinutes(baseUrl: string): number {
  let host = "";
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return LONG_CACHE_TTL_MINUTES;
  }
  return SHORT_CACHE_HOSTS.some((pattern) => pattern.test(host))
    ? SHORT_CACHE_TTL_MINUTES
    : LONG_CACHE_TTL_MINUTES;
}

function deepseek(name: string, model: string): ProviderConfig {
  return {
    name,
    kind: "openai",
    baseUrl: DEEPSEEK_BASE_URL,
    models: [model],
    defaultModel: model,
    apiKeyEnv: "DEEPSEEK_API_KEY",
    contextWindow: 1_000_000,
    cacheTtlMinutes: LONG_CACHE_TTL_MINUTES,
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
    language: "auto",
    providers,
    userProviders: providers.map((provider) => ({ ...provider })),
    modelOverrides: {},
    // 0 = no explicit cap on tool rounds; the agent decides.
    agent: { maxSteps: 0, effort: "auto" },
    tools: {
      enabled: [],
      bashTimeoutSeconds: 120,
      outputBudgetBytes: 32_000,
      webFetchAllowPrivate: [],
      mcpStartupTimeoutSeconds: 30,
      mcpCallTimeoutSeconds: 300,
    },
    permissions: { mode: "ask", allow: [], ask: [], deny: [], allowDynamicBash: false },
    sandbox: { allowWrite: [], forbidRead: [], bash: true, require: false, protectGit: true },
    secrets: { protectSensitiveFiles: true, envAllow: [] },
    network: {
      maxRetries: 3,
      retryBaseMs: 1000,
      connectTimeoutSeconds: 15,
      // Reasoning models may think for minutes, but DeepSeek sends keep-alives and frames meanwhile.
      firstByteTimeoutSeconds: 120,
      idleTimeoutSeconds: 90,
    },
    billing: { currency: "auto" },
    sessions: { retentionDays: 30 },
    skills: { paths: [], excludedPaths: [], disabled: [], disableImplicitInvocation: false, maxDepth: 3 },
    ui: { theme: "auto", showTurnUsage: true, showReasoning: true },
    serve: { addr: "127.0.0.1:8787", authMode: "token", behindProxy: false },
    mcpServers: [],
    files: [],
    warnings: [],
    unused: [],
  };
}
