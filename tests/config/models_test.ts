import assert from "node:assert/strict";
import { builtinConfig } from "../../src/config/builtin.ts";
import { modelSettings, resolveModel } from "../../src/config/models.ts";
import type { ProviderConfig, ResolvedConfig } from "../../src/config/types.ts";
import { ReasonixError } from "../../src/lib/errors.ts";

function withRouter(): ResolvedConfig {
  const config = builtinConfig();
  const router: ProviderConfig = {
    ...config.providers[0]!,
    name: "router",
    baseUrl: "https://router.example.com",
    models: ["gpt-x", "deepseek-v4-pro", "org/model"],
    defaultModel: "gpt-x",
    source: "global",
  };
  config.providers.push(router);
  return config;
}

Deno.test("resolveModel() takes a provider name to its default model", () => {
  const ref = resolveModel(withRouter(), "deepseek-pro");
  assert.deepEqual([ref.provider.name, ref.model], ["deepseek-pro", "deepseek-v4-pro"]);
});

Deno.test("resolveModel() takes a bare model name to the first provider listing it", () => {
  const ref = resolveModel(withRouter(), "deepseek-v4-pro");
  assert.deepEqual([ref.provider.name, ref.model], ["deepseek-pro", "deepseek-v4-pro"]);
  const other = resolveModel(withRouter(), "gpt-x");
  assert.deepEqual([other.provider.name, other.model], ["router", "gpt-x"]);
});

Deno.test("resolveModel() takes provider/model, including models with a slash", () => {
  const ref = resolveModel(withRouter(), "router/deepseek-v4-pro");
  assert.deepEqual([ref.provider.name, ref.model], ["router", "deepseek-v4-pro"]);
  const slashed = resolveModel(withRouter(), "router/org/model");
  assert.deepEqual([slashed.provider.name, slashed.model], ["router", "org/model"]);
});

Deno.test("resolveModel() defaults to config.defaultModel", () => {
  const ref = resolveModel(builtinConfig());
  assert.deepEqual([ref.provider.name, ref.model], ["deepseek-flash", "deepseek-flash"]);
});

Deno.test("resolveModel() rejects an unknown model and lists what is available", () => {
  for (const ref of ["gpt-9", "router/missing", "nobody/gpt-x"]) {
    assert.throws(() => resolveModel(withRouter(), ref), (error: unknown) => {
      assert.ok(error instanceof ReasonixError);
      assert.equal(error.code, "config.unknown_model");
      assert.equal(
        error.message,
        `Unknown model "${ref}" (available: "deepseek-flash/deepseek-flash", "deepseek-pro/deepseek-v4-pro", ` +
          `"router/gpt-x", "router/deepseek-v4-pro", "router/org/model")`,
      );
      return true;
    });
  }
});

Deno.test("modelSettings() applies model overrides over the provider", () => {
  const config = builtinConfig();
  config.modelOverrides["deepseek-flash"] = { contextWindow: 64000, effort: "max" };
  const ref = resolveModel(config);
  assert.deepEqual(modelSettings(config, ref), { contextWindow: 64000, maxOutputTokens: 0, effort: "max" });
  const pro = resolveModel(config, "deepseek-pro");
  assert.deepEqual(modelSettings(config, pro), {
    contextWindow: 1000000,
    maxOutputTokens: 0,
    effort: "auto",
  });
});
