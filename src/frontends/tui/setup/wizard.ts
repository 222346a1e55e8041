/**
 * @module
 * The interactive face of `reasonix setup`: prompts with @clack/prompts, behaviour from
 * control/setup.ts. The key is read masked and never printed. It goes to `<home>/.env`; `default_model`
 * goes to the user's config, or to the project's `reasonix.toml` with `--project`.
 */
import { confirm, intro, isCancel, log, outro, select } from "@clack/prompts";
import {
  configTarget,
  currentDefaultModel,
  existingKeySource,
  type ModelChoice,
  modelChoices,
  storeKey,
  writeCustomProvider,
  writeDefaultModel,
} from "../../../control/mod.ts";
import { detectLanguage, setLanguage, t } from "../../../lib/i18n/mod.ts";
import { askCustomProvider } from "./wizard_custom.ts";
import { askKey, cancelled, type Plan, type WizardOptions } from "./wizard_plan.ts";
import { testUntilDecided } from "./wizard_check.ts";

export type { WizardOptions } from "./wizard_plan.ts";

const CUSTOM = -1;

/** Returns true when setup finished, false when the user cancelled. */
export async function runSetupWizard(options: WizardOptions): Promise<boolean> {
  setLanguage(detectLanguage(options.env));
  intro(t("setup.intro"));
  const choices = await modelChoices(options);
  const picked = await select({
    message: t("setup.pick_model"),
    options: [
      ...choices.map((choice, index) => ({ value: index, label: choice.ref, hint: choice.model })),
      { value: CUSTOM, label: t("setup.custom_option") },
    ],
  });
  if (isCancel(picked)) return cancelled();
  const planned = picked === CUSTOM
    ? await askCustomProvider(options, { previousKey: null, known: choices })
    : await planForChoice(choices[picked]!, options);
  if (planned === null) return cancelled();
  const decided = await testUntilDecided(planned, options, choices);
  if (decided === null) return cancelled();
  await finish(decided, options);
  return true;
}

async function planForChoice(choice: ModelChoice, options: WizardOptions): Promise<Plan | null> {
  const envName = choice.provider.apiKeyEnv;
  // A provider declared without `api_key_env` sends no key: there is nothing to ask, only to test.
  if (envName === "") return { choice, store: null, testWith: "", custom: false };
  const source = await existingKeySource(envName, options);
  if (source) {
    const where = source === "env" ? t("setup.the_environment") : options.paths.envFile;
    const keep = await confirm({ message: t("setup.use_existing_key", { env: envName, source: where }) });
    if (isCancel(keep)) return null;
    if (keep) {
      log.info(t("setup.key_kept", { env: envName, source: where }));
      return { choice, store: null, testWith: null, custom: false };
    }
  }
  const key = await askKey(t("setup.paste_key", { env: envName }));
  return key === null ? null : { choice, store: key, testWith: key, custom: false };
}

/** Writes only what the plan needs: the key, the custom provider, `default_model`; then one summary. */
async function finish(plan: Plan, options: WizardOptions): Promise<void> {
  const { choice } = plan;
  const lines: string[] = [];
  if (plan.store !== null) {
    await storeKey(options.paths, choice.provider.apiKeyEnv, plan.store);
    const file = shortPath(options.paths.envFile, options.paths.userHome);
    lines.push(t("setup.wrote_key", { env: choice.provider.apiKeyEnv, file }));
  }
  try {
    lines.push(...await writeConfig(plan, options));
  } catch (error) {
    // Inside a fenced session (`deno task start`) only `<home>/.env` is writable: the key is kept anyway.
    if (!(error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable)) {
      throw error;
    }
    lines.push(t("setup.config_not_written"));
  }
  log.success(lines.join("\n"));
  outro(plan.untested ? t("setup.done_untested") : t("setup.done"));
}

async function writeConfig(plan: Plan, options: WizardOptions): Promise<string[]> {
  const { choice } = plan;
  const show = (file: string) => shortPath(file, options.paths.userHome);
  const provider = plan.custom ? await writeCustomProvider(options.paths, choice) : undefined;
  const target = configTarget(options.paths, options.project ? { workspace: options.workspace } : undefined);
  const already = !options.project && await currentDefaultModel(options) === choice.ref;
  const model = already ? undefined : await writeDefaultModel(target, choice.ref);
  const together = provider && model && provider.file === model.file;
  if (together && provider.kind !== "unchanged" && model.kind !== "unchanged") {
    return [t("setup.added_provider_default", { name: choice.ref, file: show(target) })];
  }
  const lines: string[] = [];
  if (provider) {
    lines.push(
      provider.kind === "unchanged"
        ? t("setup.config_unchanged", { file: show(provider.file) })
        : t("setup.added_provider", { name: choice.ref, file: show(provider.file) }),
    );
  }
  if (model === undefined) lines.push(t("setup.default_already", { model: choice.ref }));
  else if (model.kind === "unchanged") lines.push(t("setup.config_unchanged", { file: show(model.file) }));
  else lines.push(t("setup.set_default", { model: choice.ref, file: show(model.file) }));
  return lines;
}

/** `~/.reasonix/config.toml`: a path under the home directory, short enough for one line. */
function shortPath(file: string, userHome: string): string {
  return userHome !== "" && file.startsWith(`${userHome}/`) ? `~${file.slice(userHome.length)}` : file;
}
