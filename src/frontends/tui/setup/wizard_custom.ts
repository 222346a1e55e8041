/**
 * @module
 * The custom OpenAI-compatible provider: base URL, model name, and its key. The key's variable is named
 * after the host (`api.example.com` → `EXAMPLE_API_KEY`); a key already set there is used as it is.
 */
import { isCancel, log, text } from "@clack/prompts";
import { customChoice, existingKey, keyEnvFor, keyOptional, type ModelChoice } from "../../../control/mod.ts";
import { t } from "../../../lib/i18n/mod.ts";
import { askKey, type Plan, type WizardOptions } from "./wizard_plan.ts";

export interface CustomContext {
  /** The key pasted earlier in this run: Enter alone on the key prompt reuses it. */
  previousKey: string | null;
  known: readonly ModelChoice[];
}

export async function askCustomProvider(
  options: WizardOptions,
  context: CustomContext,
): Promise<Plan | null> {
  const baseUrl = await text({
    message: t("setup.base_url"),
    placeholder: "https://api.example.com/v1",
    validate: (value) => isHttpUrl(value ?? "") ? undefined : t("setup.base_url_invalid"),
  });
  if (isCancel(baseUrl)) return null;
  const model = await text({
    message: t("setup.model_name"),
    validate: (value) => /^[\x21-\x7e]+$/.test((value ?? "").trim()) ? undefined : t("setup.model_required"),
  });
  if (isCancel(model)) return null;
  const envName = keyEnvFor(baseUrl);
  const custom = { baseUrl: baseUrl.trim(), model: model.trim(), apiKeyEnv: envName };
  const choice = customChoice(custom, context.known.map((known) => known.provider));
  const already = await existingKey(envName, options);
  if (already !== undefined) {
    log.info(t("setup.custom_key_found", { env: envName }));
    return { choice, store: null, testWith: already, custom: true };
  }
  const reuse = context.previousKey;
  const optional = keyOptional(baseUrl);
  const message = reuse !== null
    ? t("setup.paste_custom_key_reuse", { env: envName })
    : optional
    ? t("setup.paste_custom_key_local", { env: envName })
    : t("setup.paste_custom_key", { env: envName });
  const key = await askKey(message, reuse !== null || optional);
  if (key === null) return null;
  // Enter alone: the key pasted before, or for a local server no key at all (nothing stored, none sent).
  const chosen = key === "" ? reuse : key;
  if (chosen === null) return { choice, store: null, testWith: "", custom: true };
  return { choice, store: chosen, testWith: chosen, custom: true };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === "https:" || url.protocol === "http:") && url.host !== "";
  } catch {
    return false;
  }
}
