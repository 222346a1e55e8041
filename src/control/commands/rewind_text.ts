/**
 * @module
 * What `/rewind` prints after a restore, shared by the typed command and the picker.
 */
import type { RewindOutcome, RewindRequest } from "../rewind.ts";
import type { CommandContext } from "./registry.ts";
import { t } from "../../lib/i18n/mod.ts";

export function reportRewind(
  ctx: Pick<CommandContext, "print" | "setInput">,
  outcome: RewindOutcome,
  request: RewindRequest,
): void {
  if (outcome.status === "changed_outside") {
    const again = "undo" in request ? "/rewind undo --yes" : `/rewind ${request.turn} ${request.scope} --yes`;
    return ctx.print(t("rewind.changed_outside", { files: outcome.files.join(", "), again }));
  }
  const files = outcome.files.length === 0
    ? t("rewind.nothing_restored")
    : t("rewind.restored", { files: outcome.files.join(", ") });
  ctx.print(
    "undo" in request ? t("rewind.undone", { files }) : t("rewind.rewound", { turn: request.turn, files }),
  );
  if (outcome.prompt !== null) {
    ctx.setInput?.(outcome.prompt);
    ctx.print(t("rewind.conversation_back", { prompt: oneLine(outcome.prompt) }));
  }
}

export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** `HH:MM` today, `MM-DD HH:MM` on another day. */
export function clock(iso: string, now: Date): string {
  const at = new Date(iso);
  const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
  return at.toDateString() === now.toDateString()
    ? time
    : `${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${time}`;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}
