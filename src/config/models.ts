/**
 * @module
 * Turns a model reference (`--model`, `default_model`) into a provider and a model name.
 */
import type { Effort } from "../provider/provider.ts";
import { ReasonixError } from "../lib/errors.ts";
import type { ProviderConfig, ResolvedConfig } from "./types.ts";

export interface ModelRef {
  provider: ProviderConfig;
  model: string;
}

/** Accepts a provider name (its default model), a bare model name (the first provider listing it) or `provider/model`. */
export function resolveModel(config: ResolvedConfig, ref?: string): ModelRef {
  const wanted = (ref ?? config.defaultModel).trim();
  const byName = config.providers.find((provider) => provider.name === wanted);
  if (byName) return { provider: byName, model: byName.defaultModel };
  const byModel = config.providers.find((provider) => provider.models.includes(wanted));
  if (byModel) return { provider: byModel, model: wanted };
  const slash = wanted.indexOf("/");
  if (slash > 0) {
    const provider = config.providers.find((candidate) => candidate.name === wanted.slice(0, slash));
    const model = wanted.slice(slash + 1);
    if (provider?.models.includes(model)) return { provider, model };
  }
  throw new ReasonixError(
    "config.unknown_model",
    `Unknown model "${wanted}" (available: ${available(config)})`,
    {
      hint:
        `Use a provider name, a model name or "provider/model"; add models under [[providers]] in config.toml`,
    },
  );
}

function available(config: ResolvedConfig): string {
  const names = config.providers.flatMap((provider) =>
    provider.models.map((model) => `"${provider.name}/${model}"`)
  );
  return names.length === 0 ? "none" : names.join(", ");
}

export interface ModelSettings {
  contextWindow: number;
  maxOutputTokens: number;
  effort: Effort;
}

/** The provider's limits and the agent's effort, with `[model_overrides.<model>]` applied. */
export function modelSettings(config: ResolvedConfig, ref: ModelRef): ModelSettings {
  const override = config.modelOverrides[ref.model] ?? {};
  return {
    contextWindow: override.contextWindow ?? ref.provider.contextWindow,
    maxOutputTokens: override.maxOutputTokens ?? ref.provider.maxOutputTokens,
    effort: override.effort ?? config.agent.effort,
  };
}
