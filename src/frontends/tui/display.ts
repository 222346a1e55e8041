/**
 * @module
 * The TUI's session-only display settings behind `/theme`, `/language` and `/verbose`: the theme
 * feeding ThemeContext, the catalog language, and the reducer's verbose flag. Starts from the
 * resolved config; nothing here is ever written back to it.
 */
import { useMemo, useRef, useState } from "react";
import type { DisplayPort, LanguageChoice, ThemeChoice, UiSettings } from "../../control/mod.ts";
import { detectLanguage, setLanguage } from "../../lib/i18n/mod.ts";
import { resolveTheme, type Theme } from "./theme.ts";
import { DEFAULT_VIEW, type ViewSettings } from "./fold.ts";

export type Env = Record<string, string | undefined>;

export interface DisplayOptions {
  settings: Pick<UiSettings, "theme" | "language"> | undefined;
  env: Env;
  view: ViewSettings;
  dispatch(action: { type: "set_verbose"; on: boolean }): void;
}

export function useDisplay(options: DisplayOptions): { theme: Theme; port: DisplayPort } {
  const current = useRef({
    theme: options.settings?.theme ?? "auto",
    language: options.settings?.language ?? "auto",
  });
  const [, rerender] = useState(0);
  const env = options.env;
  const themeSetting = current.current.theme;
  const theme = useMemo(() => resolveTheme({ setting: themeSetting, env }), [themeSetting, env]);
  // Commands read state() right after a setter, before React re-renders: keep the latest in refs.
  const verbose = useRef(options.view.verbose);
  verbose.current = options.view.verbose;
  const port: DisplayPort = {
    setTheme(setting: ThemeChoice) {
      current.current = { ...current.current, theme: setting };
      rerender((n) => n + 1);
    },
    setLanguage(setting: LanguageChoice) {
      current.current = { ...current.current, language: setting };
      setLanguage(languageFor(setting, env));
      rerender((n) => n + 1);
    },
    setVerbose(on: boolean) {
      verbose.current = on;
      options.dispatch({ type: "set_verbose", on });
    },
    state: () => ({
      theme: resolveTheme({ setting: current.current.theme, env }).name,
      themeSetting: current.current.theme,
      language: languageFor(current.current.language, env),
      languageSetting: current.current.language,
      verbose: verbose.current,
    }),
  };
  return { theme, port };
}

export function languageFor(setting: LanguageChoice, env: Env) {
  return detectLanguage(env, setting === "auto" ? undefined : setting);
}

/** How entries start out, from `[ui]`. */
export function viewFrom(
  settings: Pick<UiSettings, "showTurnUsage" | "showReasoning"> | undefined,
): ViewSettings {
  return settings
    ? { ...DEFAULT_VIEW, showTurnUsage: settings.showTurnUsage, showReasoning: settings.showReasoning }
    : DEFAULT_VIEW;
}
