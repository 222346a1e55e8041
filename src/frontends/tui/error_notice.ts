/**
 * @module
 * A failed turn as a translated headline for its error code family, followed by the raw detail.
 */
import type { ErrorInfo } from "../../control/mod.ts";
import { type MessageKey, t } from "../../lib/i18n/mod.ts";

/** Most specific first: an exact code, then a family prefix ending in ".". */
const HEADLINES: readonly [string, MessageKey][] = [
  ["provider.auth", "error.auth"],
  ["provider.rate_limited", "error.rate_limited"],
  ["provider.balance", "error.balance"],
  ["provider.network", "error.network"],
  ["provider.server", "error.server"],
  ["provider.truncated", "error.truncated"],
  ["provider.", "error.provider"],
  ["turn.max_steps", "error.max_steps"],
  ["turn.interrupted", "error.interrupted"],
  ["config.", "error.config"],
  ["session.", "error.session"],
  ["permission.", "error.permission"],
  ["internal", "error.internal"],
];

export function errorHeadline(code: string): string | null {
  const match = HEADLINES.find(([pattern]) =>
    pattern.endsWith(".") ? code.startsWith(pattern) : code === pattern
  );
  return match ? t(match[1]) : null;
}

/** The notice text of a failed turn; `result` is used when the turn carries no error. */
export function errorNoticeText(error: ErrorInfo | undefined, result: string): string {
  if (!error) return result;
  const detail = `${error.message}${error.hint ? `\n${error.hint}` : ""}`;
  const headline = errorHeadline(error.code);
  // An interruption has no detail beyond its headline.
  if (!headline || error.code === "turn.interrupted") return headline ?? detail;
  return `${headline}\n${detail}`;
}
