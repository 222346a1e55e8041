/**
 * @module
 * The interactive face of `reasonix setup`: prompts with @clack/prompts, behaviour from
 * control/setup.ts. The key is read masked and never printed.
 */
import { cancel, confirm, intro, isCancel, log, outro, password, select, spinner } from "@clack/prompts";
import {
  type ConfigWrite,
  existingKeySource,
  modelChoices,
  type SetupContext,
  storeKey,
  testKey,
  writeProjectConfig,
} from "../../../control/mod.ts";
import { detectLanguage, setLanguage, t } from "../../../lib/i18n/mod.ts";

export interface WizardOptions extends SetupContext {
  /** Where `reasonix.toml` goes (default: the workspace). */
  configDir?: string;
}

/** Returns true when setup finished, false when the user cancelled. */
export async function runSetupWizard(options: WizardOptions): Promise<boolean> {
  setLanguage(detectLanguage(options.env));
  intro(t("setup.intro"));
  const choices = await modelChoices(options);
  const picked = await select({
    message: t("setup.pick_model"),
    options: choices.map((choice, index) => ({ value: index, label: choice.ref, hint: choice.model })),
  });
  if (isCancel(picked)) return cancelled();
  const choice = choices[picked]!;
  const envName = choice.provider.apiKeyEnv;
  const source = await existingKeySource(envName, options);
  let key: string | null = null;
  if (source) {
    const keep = await confirm({
      message: t("setup.use_existing_key", { env: envName, source: sourceName(source, options) }),
    });
    if (isCancel(keep)) return cancelled();
    if (keep) log.info(t("setup.key_kept", { env: envName, source: sourceName(source, options) }));
    else key = await askKey(envName);
  } else {
    key = await askKey(envName);
  }
  if (key === null && !source) return cancelled();
  if (key !== null) {
    if (!(await checkKey(choice, key))) return cancelled();
    await storeKey(options.paths, envName, key);
    log.success(t("setup.wrote_key", { env: envName, file: options.paths.envFile }));
  }
  reportConfig(await writeProjectConfig(options.configDir ?? options.workspace, choice.ref));
  outro(t("setup.done"));
  return true;
}

async function askKey(envName: string): Promise<string | null> {
  const value = await password({
    message: t("setup.paste_key", { env: envName }),
    validate: (text) => (text ?? "").trim() === "" ? t("setup.key_required") : undefined,
  });
  return isCancel(value) ? null : value.trim();
}

async function checkKey(choice: Parameters<typeof testKey>[0], key: string): Promise<boolean> {
  const progress = spinner();
  progress.start(t("setup.testing"));
  const result = await testKey(choice, key);
  if (result.ok) {
    progress.stop(t("setup.test_ok", { model: result.model }));
    return true;
  }
  progress.error(t("setup.test_failed", { message: result.message }));
  return false;
}

function reportConfig(write: ConfigWrite): void {
  if (write.kind === "created") log.success(t("setup.wrote_config", { file: write.file }));
  else if (write.kind === "added") {
    log.success(t("setup.added_keys", { keys: write.keys.join(", "), file: write.file }));
  } else log.info(t("setup.config_unchanged", { file: write.file }));
}

function sourceName(source: "env" | "dotenv", options: SetupContext): string {
  return source === "env" ? "the environment" : options.paths.envFile;
}

function cancelled(): false {
  cancel(t("setup.cancelled"));
  return false;
}
