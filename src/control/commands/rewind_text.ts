/**
 * @module
 * What `/rewind` prints after a restore, shared by the typed command and the picker.
 */
import type { RewindOutcome, RewindRequest } from "../rewind.ts";
import type { CommandContext } from "./registry.ts";

export function reportRewind(
  ctx: Pick<CommandContext, "print" | "setInput">,
  outcome: RewindOutcome,
  request: RewindRequest,
): void {
  if (outcome.status === "changed_outside") {
    const again = "undo" in request ? "/rewind undo --yes" : `/rewind ${request.turn} ${request.scope} --yes`;
    return ctx.print(
      `These files changed outside Reasonix since the checkpoint: ${outcome.files.join(", ")}\n` +
        `Nothing was restored; to overwrite them run ${again}`,
    );
  }
  const files = outcome.files.length === 0 ? "no files to restore" : `restored ${outcome.files.join(", ")}`;
  const what = "undo" in request ? "Undid the last restore" : `Rewound to before turn ${request.turn}`;
  ctx.print(`${what}: ${files}`);
  if (outcome.prompt !== null) {
    ctx.setInput?.(outcome.prompt);
    ctx.print(`The conversation is back before: ${oneLine(outcome.prompt)}`);
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
