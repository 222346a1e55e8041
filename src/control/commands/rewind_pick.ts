/**
 * @module
 * `/rewind` in a face that can show a list: pick a turn (newest first) or "undo last restore", then
 * what to restore; files changed outside Reasonix are listed and confirmed before a forced restore.
 */
import { t } from "../../lib/i18n/mod.ts";
import type { RewindRequest, RewindScope, RewindTurn } from "../rewind.ts";
import { clock, oneLine, reportRewind } from "./rewind_text.ts";
import type { ChoiceList, CommandContext, CommandHost } from "./registry.ts";

type Rewinder = Required<Pick<CommandHost, "rewind" | "rewindState">>;
type Chooser = (list: ChoiceList) => Promise<number | null>;

const SCOPES: readonly RewindScope[] = ["both", "conversation", "code"];

export async function pickRewind(ctx: CommandContext, host: Rewinder, choose: Chooser): Promise<void> {
  const request = await pickRequest(ctx, host, choose);
  if (request === null) return;
  let outcome = await host.rewind(request);
  if (outcome.status === "changed_outside") {
    const sure = await choose({
      title: t("rewind.changed_title"),
      lines: outcome.files.map((file) => `  ${file}`),
      rows: [{ label: t("rewind.overwrite") }, { label: t("rewind.cancel") }],
    });
    if (sure !== 0) return ctx.print(t("rewind.cancelled"));
    outcome = await host.rewind({ ...request, force: true });
  }
  reportRewind(ctx, outcome, request);
}

async function pickRequest(
  ctx: CommandContext,
  host: Rewinder,
  choose: Chooser,
): Promise<RewindRequest | null> {
  const { turns, canUndo } = await host.rewindState();
  if (turns.length === 0 && !canUndo) {
    ctx.print(t("rewind.empty"));
    return null;
  }
  const newest = [...turns].reverse();
  const undoRows = canUndo ? [{ label: t("rewind.undo_row") }] : [];
  const now = new Date();
  const picked = await choose({
    title: t("rewind.title"),
    lines: [t("rewind.untracked")],
    rows: [...undoRows, ...newest.map((turn) => turnRow(turn, now))],
  });
  if (picked === null) return null;
  if (picked < undoRows.length) return { undo: true };
  const turn = newest[picked - undoRows.length]!;
  const scope = await choose({
    title: t("rewind.scope_title", { turn: turn.turn, prompt: oneLine(turn.prompt) }),
    lines: [t("rewind.untracked")],
    rows: [...SCOPES.map((scope) => ({ label: t(`rewind.scope_${scope}`) })), { label: t("rewind.cancel") }],
  });
  if (scope === null || scope >= SCOPES.length) return null;
  return { turn: turn.turn, scope: SCOPES[scope]! };
}

function turnRow(turn: RewindTurn, now: Date) {
  const files = turn.files.length === 0 ? t("rewind.no_files") : turn.files.join(", ");
  return {
    label: `#${turn.turn}  ${clock(turn.at, now)}  ${oneLine(turn.prompt)}`,
    detail: files,
  };
}
