/**
 * @module
 * `/rewind`: list the user turns, then `/rewind <turn> [both|conversation|code] [--yes]` or
 * `/rewind undo`. The work is the Controller's `rewind`; this only parses and prints.
 */
import { errorMessage } from "../../lib/errors.ts";
import {
  type RewindOutcome,
  type RewindRequest,
  type RewindScope,
  type RewindState,
  UNTRACKED_NOTE,
} from "../rewind.ts";
import type { CommandContext, SlashCommand } from "./registry.ts";

const SCOPES: readonly RewindScope[] = ["both", "conversation", "code"];

export const rewindCommand: SlashCommand = {
  name: "rewind",
  aliases: [],
  summary: "Go back to before a turn: code, conversation or both (or undo the last restore)",
  usage: "/rewind [<turn> [both|conversation|code] [--yes] | undo]",
  argumentChoices: ["undo"],
  async run(ctx, args) {
    const host = ctx.host;
    if (!host.rewind || !host.rewindState) return ctx.print("Rewind is not available here");
    try {
      const words = args.trim().split(/\s+/).filter((word) => word !== "");
      if (words.length === 0) return ctx.print(await listing(() => host.rewindState!()));
      const request = parse(words);
      if (typeof request === "string") return ctx.print(request);
      report(ctx, await host.rewind(request), request);
    } catch (error) {
      ctx.print(`Cannot rewind: ${errorMessage(error)}`);
    }
  },
};

async function listing(state: () => Promise<RewindState>): Promise<string> {
  const { turns, canUndo } = await state();
  if (turns.length === 0 && !canUndo) return "No user turns to rewind to yet";
  const lines = turns.map((turn) => {
    const at = new Date(turn.at);
    const time = `${pad(at.getHours())}:${pad(at.getMinutes())}`;
    const files = turn.files.length === 0 ? "" : `  (${turn.files.join(", ")})`;
    return `${String(turn.turn).padStart(3)}  ${time}  ${oneLine(turn.prompt)}${files}`;
  });
  return [
    ...lines,
    "",
    "/rewind <turn> both | conversation | code  goes back to before that turn",
    ...(canUndo ? ["/rewind undo  undoes the last restore"] : []),
    UNTRACKED_NOTE,
  ].join("\n");
}

function parse(words: string[]): RewindRequest | string {
  const force = words.includes("--yes");
  const rest = words.filter((word) => word !== "--yes");
  if (rest[0] === "undo") return { undo: true, force };
  const turn = Number(rest[0]);
  const scope = (rest[1] ?? "both") as RewindScope;
  if (!Number.isInteger(turn) || turn < 1 || !SCOPES.includes(scope)) {
    return "Usage: /rewind [<turn> [both|conversation|code] [--yes] | undo]";
  }
  return { turn, scope, force };
}

function report(ctx: CommandContext, outcome: RewindOutcome, request: RewindRequest): void {
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

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}
