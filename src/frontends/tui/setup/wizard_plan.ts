/**
 * @module
 * What the setup wizard has decided so far, and the prompts its steps share.
 */
import { cancel, intro, isCancel, password } from "@clack/prompts";
import type { ModelChoice, SetupContext } from "../../../control/mod.ts";
import { t } from "../../../lib/i18n/mod.ts";

export interface WizardOptions extends SetupContext {
  /** `reasonix setup --project`: `default_model` goes to the workspace's `reasonix.toml`. */
  project?: boolean;
}

export interface Plan {
  choice: ModelChoice;
  /** The key to write to `<home>/.env`; null when its variable already holds one. */
  store: string | null;
  /** The key the test request sends; null when the person kept a key already set (no test). */
  testWith: string | null;
  /** A custom provider: its `[[providers]]` entry is added to the user's config. */
  custom: boolean;
  /** The person chose "Save anyway" after a failed test. */
  untested?: boolean;
}

/** The key, masked; null when cancelled. `allowEmpty` lets Enter alone answer "" (reuse a key). */
export async function askKey(message: string, allowEmpty = false): Promise<string | null> {
  const value = await password({
    message,
    validate: (text) => !allowEmpty && (text ?? "").trim() === "" ? t("setup.key_required") : undefined,
  });
  return isCancel(value) ? null : value.trim();
}

export function cancelled(): false {
  cancel(t("setup.cancelled"));
  return false;
}

/**
 * Starts a new page for a branch of the flow, so the questions of one branch stay on one 80×24 screen:
 * the screen is scrolled up into the scrollback (nothing is lost), then the cursor goes home.
 */
export function freshScreen(title: string): void {
  if (Deno.stdout.isTerminal()) {
    const rows = Deno.consoleSize().rows;
    Deno.stdout.writeSync(new TextEncoder().encode(`${"\n".repeat(rows)}\x1b[H\x1b[J`));
  }
  intro(title);
}
