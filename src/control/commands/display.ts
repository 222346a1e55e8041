/**
 * @module
 * `/theme`, `/language` and `/verbose`: display settings the face holds for this session only. They
 * never touch the user's config; each answer names the key that makes the choice permanent.
 */
import { LANGUAGES, t } from "../../lib/i18n/mod.ts";
import type { CommandContext, DisplayPort, LanguageChoice, SlashCommand, ThemeChoice } from "./registry.ts";

const THEME_CHOICES: readonly ThemeChoice[] = ["auto", "dark", "light"];
const LANGUAGE_CHOICES: readonly LanguageChoice[] = ["auto", ...LANGUAGES];
const SWITCHES = ["on", "off"] as const;

export function displayCommands(): SlashCommand[] {
  return [theme, language, verbose];
}

/** Runs `body` with the face's display port, or says the command needs the interactive TUI. */
function withDisplay(name: string, body: (display: DisplayPort, ctx: CommandContext, args: string) => void) {
  return (ctx: CommandContext, args: string) => {
    if (!ctx.display) return ctx.print(t("display.unavailable", { command: name }));
    body(ctx.display, ctx, args.trim());
  };
}

const theme: SlashCommand = {
  name: "theme",
  aliases: [],
  get summary() {
    return t("display.theme_summary");
  },
  usage: "/theme [auto|dark|light]",
  argumentChoices: THEME_CHOICES,
  run: withDisplay("theme", (display, ctx, args) => {
    if (!args) {
      const now = display.state();
      return ctx.print(t("display.theme_now", { theme: now.theme, setting: now.themeSetting }));
    }
    const setting = THEME_CHOICES.find((choice) => choice === args.toLowerCase());
    if (!setting) return ctx.print(t("display.theme_usage"));
    display.setTheme(setting);
    ctx.print(t("display.theme_set", { setting }));
  }),
};

const language: SlashCommand = {
  name: "language",
  aliases: ["lang"],
  get summary() {
    return t("display.language_summary");
  },
  usage: "/language [auto|en|zh-CN|zh-TW]",
  argumentChoices: LANGUAGE_CHOICES,
  run: withDisplay("language", (display, ctx, args) => {
    if (!args) {
      const now = display.state();
      return ctx.print(t("display.language_now", { language: now.language, setting: now.languageSetting }));
    }
    const setting = LANGUAGE_CHOICES.find((choice) => choice.toLowerCase() === args.toLowerCase());
    if (!setting) return ctx.print(t("display.language_usage"));
    display.setLanguage(setting);
    // Printed after the switch, so the answer is already in the new language.
    ctx.print(t("display.language_set", { language: display.state().language, setting }));
  }),
};

const verbose: SlashCommand = {
  name: "verbose",
  aliases: [],
  get summary() {
    return t("display.verbose_summary");
  },
  usage: "/verbose [on|off]",
  argumentChoices: SWITCHES,
  run: withDisplay("verbose", (display, ctx, args) => {
    if (!args) {
      return ctx.print(t("display.verbose_now", { state: onOff(display.state().verbose) }));
    }
    const choice = SWITCHES.find((candidate) => candidate === args.toLowerCase());
    if (!choice) return ctx.print(t("display.verbose_usage"));
    display.setVerbose(choice === "on");
    ctx.print(t("display.verbose_set", { state: onOff(choice === "on") }));
  }),
};

function onOff(on: boolean): string {
  return t(on ? "display.on" : "display.off");
}
