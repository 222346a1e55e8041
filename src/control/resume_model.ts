/**
 * @module
 * Which provider and model a resumed session runs with: the ones it was started with, found by
 * provider name first (a custom provider may list a model under a built-in's name), unless the person
 * picked another with --model.
 */
import { type ModelRef, resolveModel } from "../config/models.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { ReasonixError } from "../lib/errors.ts";
import type { SessionHeader } from "../session/store.ts";

export function modelForSession(
  config: ResolvedConfig,
  options: { flag?: string; header?: SessionHeader },
): ModelRef {
  const { flag, header } = options;
  if (flag || !header) return resolveModel(config, flag);
  const provider = config.providers.find((candidate) => candidate.name === header.provider);
  if (!provider) throw providerGone(config, header);
  const model = provider.models.includes(header.model) ? header.model : provider.defaultModel;
  return { provider, model };
}

function providerGone(config: ResolvedConfig, header: SessionHeader): ReasonixError {
  const choices = config.providers.flatMap((p) => p.models.map((model) => `"${p.name}/${model}"`));
  return new ReasonixError(
    "session.provider_missing",
    `Cannot continue session "${header.id}": its provider "${header.provider}" (model "${header.model}") ` +
      `is no longer configured (configured: ${choices.length > 0 ? choices.join(", ") : "none"})`,
    { hint: `Add [[providers]] name = "${header.provider}" back to config.toml, or pick one with --model` },
  );
}
