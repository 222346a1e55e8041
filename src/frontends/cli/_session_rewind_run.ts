/**
 * @module
 * `reasonix session checkpoints` and `reasonix session rewind`: thin renderers over
 * control/session_rewind.ts.
 */
import { ReasonixError } from "../../lib/errors.ts";
import {
  adminContext,
  type RewindScope,
  sessionCheckpoints,
  sessionRewind,
  UNTRACKED_NOTE,
} from "../../control/mod.ts";

export interface RewindOptions {
  turn: number;
  code?: boolean;
  conversation?: boolean;
  both?: boolean;
  yes?: boolean;
  json?: boolean;
  dir?: string;
}

export async function checkpointsCmd(query: string, opts: { json?: boolean; dir?: string }): Promise<void> {
  const report = await sessionCheckpoints(await adminContext(opts.dir), query);
  if (opts.json) return console.log(JSON.stringify(report, null, 2));
  console.log(`session ${report.sessionId}`);
  for (const turn of report.turns) {
    const files = turn.files.length === 0 ? "no files" : turn.files.join(", ");
    console.log(
      `${String(turn.turn).padStart(3)}  ${turn.at.slice(0, 16).replace("T", " ")}  ${
        oneLine(turn.prompt)
      }  (${files})`,
    );
  }
  if (report.canUndo) console.log("the last change was a restore (undo it in the TUI with /rewind)");
  console.log(UNTRACKED_NOTE);
}

export async function rewindCmd(query: string, opts: RewindOptions): Promise<void> {
  const scope = scopeOf(opts);
  const turn = opts.turn;
  const ctx = await adminContext(opts.dir);
  const { outcome } = await sessionRewind(ctx, query, { turn, scope, force: opts.yes === true });
  if (outcome.status === "changed_outside") {
    throw new ReasonixError(
      "rewind.changed_outside",
      `Cannot rewind: ${outcome.files.join(", ")} changed outside Reasonix since the checkpoint; ` +
        "pass --yes to overwrite them",
    );
  }
  if (opts.json) return console.log(JSON.stringify({ ...outcome, history: undefined }, null, 2));
  const files = outcome.files.length === 0 ? "no files to restore" : `restored ${outcome.files.join(", ")}`;
  console.log(`Rewound to before turn ${turn} (${scope}): ${files}`);
  if (outcome.prompt !== null) console.log(`The conversation is back before: ${oneLine(outcome.prompt)}`);
  console.log(UNTRACKED_NOTE);
}

function scopeOf(opts: RewindOptions): RewindScope {
  const picked = (["code", "conversation", "both"] as const).filter((scope) => opts[scope]);
  if (picked.length !== 1) {
    throw new ReasonixError(
      "usage.rewind_scope",
      "Cannot rewind: give exactly one of --code, --conversation, --both",
    );
  }
  return picked[0]!;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
