/**
 * @module
 * Tests the key with one tiny request. When it fails the wizard says what failed and keeps the key:
 * save anyway, retry with the same key, switch to a custom OpenAI-compatible provider, or cancel.
 */
import { isCancel, select, spinner } from "@clack/prompts";
import { type ModelChoice, testKey } from "../../../control/mod.ts";
import { t } from "../../../lib/i18n/mod.ts";
import { askCustomProvider } from "./wizard_custom.ts";
import { freshScreen, type Plan, type WizardOptions } from "./wizard_plan.ts";

type Next = "save" | "retry" | "custom" | "cancel";

/** The plan to write, or null when the person cancelled. A plan with no key to test passes through. */
export async function testUntilDecided(
  first: Plan,
  options: WizardOptions,
  known: readonly ModelChoice[],
): Promise<Plan | null> {
  let plan = first;
  while (plan.testWith !== null) {
    const progress = spinner();
    progress.start(t("setup.testing", { host: hostOf(plan.choice.provider.baseUrl) }));
    const result = await testKey(plan.choice, plan.testWith, { env: options.env });
    if (result.ok) {
      progress.stop(t("setup.test_ok", { model: result.model }));
      return plan;
    }
    progress.error(result.message);
    const next = await askNext();
    if (next === "cancel") return null;
    if (next === "save") return { ...plan, untested: true };
    if (next === "custom") {
      freshScreen(t("setup.intro_custom"));
      const custom = await askCustomProvider(options, { previousKey: plan.testWith, known });
      if (custom === null) return null;
      plan = custom;
    }
  }
  return plan;
}

async function askNext(): Promise<Next> {
  const next = await select<Next>({
    message: t("setup.failed_menu"),
    options: [
      { value: "save", label: t("setup.save_anyway"), hint: t("setup.save_anyway_hint") },
      { value: "retry", label: t("setup.retry"), hint: t("setup.retry_hint") },
      { value: "custom", label: t("setup.use_custom") },
      { value: "cancel", label: t("setup.cancel_option"), hint: t("setup.cancel_hint") },
    ],
  });
  return isCancel(next) ? "cancel" : next;
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
