/**
 * @module
 * `/resume`: the numbered listing of a workspace's sessions, and which one a query names — its number
 * in that listing, its id or a unique id prefix, or text found in its title or first message.
 */
import { t } from "../lib/i18n/mod.ts";
import type { DetailedSession } from "../session/details.ts";
import type { SessionListing } from "../session/listing.ts";
import type { ChoiceList } from "./commands/registry.ts";

export const RESUME_SHOWN = 10;
const LABEL_LENGTH = 60;

export type Pick =
  | { kind: "found"; session: DetailedSession }
  | { kind: "none" }
  | { kind: "ambiguous"; matches: DetailedSession[] };

/** `sessions` newest first, as listed; numbers count from 1 in that order. */
export function pickSession(sessions: readonly DetailedSession[], query: string): Pick {
  const wanted = query.trim();
  if (/^\d+$/.test(wanted)) {
    const index = Number(wanted) - 1;
    const numbered = sessions.slice(0, RESUME_SHOWN)[index];
    if (numbered) return { kind: "found", session: numbered };
  }
  const exact = sessions.find((session) => session.id === wanted);
  if (exact) return { kind: "found", session: exact };
  const byId = sessions.filter((session) => session.id.startsWith(wanted));
  if (byId.length > 0) return oneOf(byId);
  const needle = wanted.toLowerCase();
  return oneOf(
    sessions.filter((session) =>
      [session.title, session.firstMessage].some((text) => text?.toLowerCase().includes(needle))
    ),
  );
}

function oneOf(matches: DetailedSession[]): Pick {
  if (matches.length === 0) return { kind: "none" };
  if (matches.length === 1) return { kind: "found", session: matches[0]! };
  return { kind: "ambiguous", matches };
}

/** The title, else the first message on one line, else a placeholder. */
export function sessionLabel(session: DetailedSession): string {
  const text = (session.title ?? session.firstMessage ?? "").replace(/\s+/g, " ").trim();
  if (text === "") return t("session.untitled");
  return text.length > LABEL_LENGTH ? `${text.slice(0, LABEL_LENGTH - 1)}…` : text;
}

export function listingText(sessions: readonly DetailedSession[], currentId: string, now: Date): string {
  if (sessions.length === 0) return t("session.list_empty");
  const lines = sessions.slice(0, RESUME_SHOWN).map((session, index) => {
    const mark = session.id === currentId ? "*" : " ";
    const meta = [
      age(session.modifiedAt, now),
      turnCount(session.turns),
    ];
    return `${mark}${String(index + 1).padStart(2)}. ${session.id}  ${sessionLabel(session)}  (${
      meta.join(", ")
    })`;
  });
  return [t("session.list_title"), ...lines, t("session.list_hint")].join("\n");
}

/** The `/resume` picker's rows: label, then last activity, turns and cost. */
export function choiceList(sessions: readonly SessionListing[], currentId: string, now: Date): ChoiceList {
  return {
    title: t("session.pick_title"),
    rows: sessions.map((session) => {
      const cost = session.cost === null ? [] : [money(session.cost, session.currency)];
      const current = session.id === currentId ? [t("session.pick_current")] : [];
      return {
        label: sessionLabel(session),
        detail: [age(session.modifiedAt, now), turnCount(session.turns), ...cost, ...current].join(" · "),
      };
    }),
  };
}

function money(cost: number, currency: string | null): string {
  const sign = currency === "CNY" ? "¥" : currency === "USD" ? "$" : "";
  return `${sign}${cost.toFixed(4)}${sign === "" && currency ? ` ${currency}` : ""}`;
}

export function turnCount(turns: number): string {
  return turns === 1 ? t("session.turn_one") : t("session.turns", { count: turns });
}

function age(iso: string, now: Date): string {
  const minutes = Math.floor((now.getTime() - Date.parse(iso)) / 60_000);
  if (minutes < 1) return t("session.age_now");
  if (minutes < 60) return t("session.age_minutes", { count: minutes });
  if (minutes < 24 * 60) return t("session.age_hours", { count: Math.floor(minutes / 60) });
  return t("session.age_days", { count: Math.floor(minutes / (24 * 60)) });
}
