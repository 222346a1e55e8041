/**
 * @module
 * `reasonix` with no subcommand: setup when no key is configured, then the Ink shell on a terminal
 * or plain line mode when stdout is piped. Boots the Controller exactly like `reasonix run`.
 */
import { resolve } from "node:path";
import { render } from "ink";
import { createElement } from "react";
import {
  bootController,
  type BootOptions,
  explainError,
  type HistoryPort,
  needsSetup,
  openInputHistory,
} from "../../control/mod.ts";
import { processEnv, resolvePaths } from "../../config/paths.ts";
import { detectLanguage, setLanguage } from "../../lib/i18n/mod.ts";
import { App } from "./app.tsx";
import { runLineMode } from "./line_mode.ts";
import { stripControls } from "../../lib/terminal_text.ts";

export interface TuiOptions {
  boot: Omit<BootOptions, "headless" | "env" | "paths">;
  /** Plain line mode instead of Ink (stdout is not a terminal). */
  lineMode: boolean;
  write: (text: string) => void;
  writeError: (text: string) => void;
}

/** Runs the interactive session; returns the process exit code. */
export async function runTui(options: TuiOptions): Promise<number> {
  const env = processEnv();
  const paths = resolvePaths(env);
  const boot = { ...options.boot, env, paths };
  setLanguage(detectLanguage(env));
  try {
    const workspace = await Deno.realPath(resolve(boot.cwd, boot.dir ?? "."));
    if (!options.lineMode && await needsSetup({ workspace, paths, env })) {
      const { runSetupWizard } = await import("./setup/wizard.ts");
      if (!await runSetupWizard({ workspace, paths, env })) return 1;
    }
    if (options.lineMode) {
      return await runLineMode({ boot, input: Deno.stdin.readable, write: options.write });
    }
    return await runInk(boot, env, await openInputHistory(paths, workspace));
  } catch (error) {
    const info = explainError(error);
    const text = `error: ${info.message}\n${info.hint ? `hint: ${info.hint}\n` : ""}`;
    options.writeError(stripControls(text));
    return 1;
  }
}

async function runInk(
  boot: Omit<BootOptions, "headless">,
  env: Record<string, string>,
  history: HistoryPort,
): Promise<number> {
  const controller = await bootController({ ...boot, headless: false, switchable: true });
  setLanguage(detectLanguage(env, controller.uiSettings.language));
  const files = () => controller.listWorkspaceFiles();
  const app = render(createElement(App, { controller, history, env, files }), {
    exitOnCtrlC: false,
  });
  try {
    await app.waitUntilExit();
  } finally {
    controller.interrupt();
    await controller.close();
  }
  return 0;
}
