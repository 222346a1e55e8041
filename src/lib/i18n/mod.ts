/**
 * @module
 * The message catalog: every user-facing string (TUI, command output) goes through `t(key, params)`. The language comes
 * from the explicit setting (`/language`, `[ui] language`), then `REASONIX_LANG`, then the locale.
 */
import { type Catalog, en, type MessageKey } from "./en.ts";
import { zhCN } from "./zh-CN.ts";
import { zhTW } from "./zh-TW.ts";

export type { Catalog, MessageKey } from "./en.ts";
export type Language = "en" | "zh-CN" | "zh-TW";
export const LANGUAGES: readonly Language[] = ["en", "zh-CN", "zh-TW"];
export const CATALOGS: Readonly<Record<Language, Catalog>> = { "en": en, "zh-CN": zhCN, "zh-TW": zhTW };

let current: Language = "en";

export function setLanguage(language: Language): void {
  current = language;
}

export function currentLanguage(): Language {
  return current;
}

export function t(key: MessageKey, params: Record<string, string | number> = {}): string {
  const template = CATALOGS[current][key] ?? en[key];
  return template.replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = params[name];
    return value === undefined ? match : String(value);
  });
}

/** A language tag or POSIX locale (`zh_CN.UTF-8`, `zh-Hant`, `en`) as one of ours; null when unknown. */
export function parseLanguage(value: string | undefined): Language | null {
  const tag = value?.trim().split(/[.@]/)[0]?.replace("_", "-").toLowerCase() ?? "";
  if (tag === "" || tag === "auto") return null;
  if (tag === "c" || tag === "posix" || tag === "en" || tag.startsWith("en-")) return "en";
  if (!(tag === "zh" || tag.startsWith("zh-"))) return tag.length >= 2 ? "en" : null;
  if (/^zh-(tw|hk|mo|hant)/.test(tag)) return "zh-TW";
  return "zh-CN";
}

export function detectLanguage(
  env: Record<string, string | undefined>,
  setting?: string,
): Language {
  for (const candidate of [setting, env.REASONIX_LANG, env.LC_ALL, env.LC_MESSAGES, env.LANG]) {
    const language = parseLanguage(candidate);
    if (language) return language;
  }
  return "en";
}
