import assert from "node:assert/strict";
import type { ProviderConfig } from "../../src/config/types.ts";
import { createProvider, providerKinds } from "../../src/provider/registry.ts";
import { OpenAIProvider } from "../../src/provider/deepseek/client.ts";
import { ProviderError } from "../../src/provider/errors.ts";

const config: ProviderConfig = {
  name: "deepseek-flash",
  kind: "openai",
  baseUrl: "https://api.deepseek.com",
  models: ["deepseek-flash"],
  defaultModel: "deepseek-flash",
  apiKeyEnv: "DEEPSEEK_API_KEY",
  contextWindow: 1_000_000,
  cacheTtlMinutes: 1440,
  maxOutputTokens: 0,
  reasoningProtocol: "deepseek",
  source: "builtin",
};

Deno.test("providerKinds() lists the openai kind", () => {
  assert.deepEqual(providerKinds(), ["openai"]);
});

Deno.test("createProvider() builds an OpenAIProvider named after the config", () => {
  const provider = createProvider(config, { apiKey: "k", maxRetries: 3, retryBaseMs: 1000 });
  assert.ok(provider instanceof OpenAIProvider);
  assert.equal(provider.name, "deepseek-flash");
});

Deno.test("createProvider() rejects an unknown kind listing the known ones", () => {
  const odd = { ...config, kind: "anthropic" } as unknown as ProviderConfig;
  assert.throws(() => createProvider(odd, { maxRetries: 0, retryBaseMs: 1 }), (error: unknown) => {
    assert.ok(error instanceof ProviderError);
    assert.equal(error.code, "provider.unknown_kind");
    assert.equal(
      error.message,
      'Cannot create provider "deepseek-flash": unknown kind "anthropic" (known kinds: "openai")',
    );
    return true;
  });
});
