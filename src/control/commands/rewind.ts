/**
 * @module
 * `/rewind`: list the user turns, then `/rewind <turn> [both|conversation|code] [--yes]` or
 * `/rewind undo`. The work is the Controller's `rewind`; this only parses and prints.
 */
import { errorMessage } from "../../lib/errors.ts";
import { type RewindRequest, type RewindScope, type RewindState, UNTRACKED_NOTE } from "../rewind.ts";
import type { SlashCommand } from "./registry.ts";
import { pickRewind } from "./rewind_pick.ts";
import { clock, oneLine, reportRewind } from "./rewind_text.ts";

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
      if (words.length === 0 && ctx.choose) {
        const rewinder = { rewind: host.rewind.bind(host), rewindState: host.rewindState.bind(host) };
        return await pickRewind(ctx, rewinder, ctx.choose);
      }
      if (words.length === 0) return ctx.print(await listing(() => host.rewindState!()));
      const request = parse(words);
      if (typeof request === "string") return ctx.print(request);
      reportRewind(ctx, await host.rewind(request), request);
    } catch (error) {
      ctx.print(`Cannot rewind: ${errorMessage(error)}`);
    }
  },
};

async function listing(state: () => Promise<RewindState>): Promise<string> {
  const { turns, canUndo } = await state();
  if (turns.length === 0 && !canUndo) return "No user turns to rewind to yet";
  const now = new Date();
  const lines = turns.map((turn) => {
    const time = clock(turn.at, now);
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
