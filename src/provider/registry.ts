/**
 * @module
 * Provider kinds as data: a map from `kind` to a factory. Adding a kind is adding an entry.
 */
import type { ProviderConfig } from "../config/types.ts";
import { ProviderError } from "./errors.ts";
import type { Provider } from "./provider.ts";
import { OpenAIProvider } from "./deepseek/client.ts";
import type { ProviderTimeouts } from "./deepseek/stall_watch.ts";

export interface CreateProviderOptions {
  apiKey?: string;
  maxRetries: number;
  retryBaseMs: number;
  maxRetryDelayMs?: number;
  /** Deadlines of each attempt; the defaults of provider/deepseek/stall_watch.ts when absent. */
  timeouts?: ProviderTimeouts;
  /** Sent in the User-Agent. */
  version?: string;
}

type ProviderFactory = (config: ProviderConfig, options: CreateProviderOptions) => Provider;

function openAIProvider(config: ProviderConfig, options: CreateProviderOptions): Provider {
  return new OpenAIProvider({
    name: config.name,
    baseUrl: config.baseUrl,
    apiKey: options.apiKey,
    apiKeyEnv: config.apiKeyEnv,
    reasoningProtocol: config.reasoningProtocol,
    maxRetries: options.maxRetries,
    retryBaseMs: options.retryBaseMs,
    maxRetryDelayMs: options.maxRetryDelayMs,
    ...(options.timeouts ? { timeouts: options.timeouts } : {}),
    version: options.version,
  });
}

const FACTORIES: ReadonlyMap<string, ProviderFactory> = new Map([["openai", openAIProvider]]);

export function providerKinds(): string[] {
  return [...FACTORIES.keys()];
}

export function createProvider(config: ProviderConfig, options: CreateProviderOptions): Provider {
  const kind: string = config.kind;
  const factory = FACTORIES.get(kind);
  if (factory) return factory(config, options);
  const known = providerKinds().map((name) => `"${name}"`).join(", ");
  throw new ProviderError(
    "provider.unknown_kind",
    `Cannot create provider "${config.name}": unknown kind "${kind}" (known kinds: ${known})`,
  );
}
