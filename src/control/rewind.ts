/**
 * @module
 * Rewind a session to the state before one of its user turns: the files the file tools changed since
 * (from checkpoints, never git), the conversation (a `rewind` record; the abandoned tail stays in the
 * file as a branch, `before-rewind-N`), or both. Every restore first snapshots what it overwrites, so it can be undone. Bash side
 * effects are not tracked.
 */
import { relative } from "node:path";
import { ReasonixError } from "../lib/errors.ts";
import type { ChatMessage } from "../provider/provider.ts";
import { type Checkpoint, checkpointDirFor, CheckpointStore, sha256 } from "../session/checkpoints.ts";
import { typedText } from "../session/details.ts";
import { loadSession, type SessionRecord } from "../session/store.ts";
import { historyBefore, turnsOf } from "../session/turns.ts";
import { rewoundBranchName } from "../session/branches.ts";
import type { Workspace } from "../tool/tool.ts";
import { readConfined, writeConfined } from "../tool/confined_fs.ts";
import { assertStillInside } from "../tool/workspace_paths.ts";

export type RewindScope = "both" | "conversation" | "code";

export type RewindRequest =
  | { turn: number; scope: RewindScope; force?: boolean }
  | { undo: true; force?: boolean };

export interface RewindTurn {
  /** 1-based user turn of the current conversation. */
  turn: number;
  at: string;
  prompt: string;
  /** Files the file tools changed in this turn, relative to the workspace. */
  files: string[];
}

export interface RewindState {
  turns: RewindTurn[];
  /** The last change was a restore: `{ undo: true }` takes it back. */
  canUndo: boolean;
}

export type RewindOutcome =
  | {
    status: "done";
    /** The prompt of the turn gone back to, for the input box (conversation restores). */
    prompt: string | null;
    /** Files written back or removed, relative to the workspace. */
    files: string[];
    /** The provider history from now on (conversation restores). */
    history: ChatMessage[] | null;
    /** For the model's next turn: after a conversation-only restore, the files left as they are. */
    note: string | null;
  }
  /** Nothing was changed: these files changed outside Reasonix since; ask, then pass `force`. */
  | { status: "changed_outside"; files: string[]; history?: undefined };

export interface RewindTarget {
  /** The session's one writer: rewind records are appended through it. */
  store: { file: string; append(record: SessionRecord): Promise<unknown> };
  /** The session's records as the writer holds them (a session not on disk yet has only staged ones). */
  records?: () => readonly SessionRecord[];
  workspace: Workspace;
  now: () => Date;
}

/** Told to the model after a conversation-only rewind, so it does not trust what it last saw. */
function keptFilesNote(kept: readonly string[]): string {
  return `Files changed by turns that were rewound away, still as those turns left them: ${kept.join(", ")}.`;
}

export const UNTRACKED_NOTE = "Only changes made by the file tools are restored; bash side effects are not.";

async function recordsOf(target: RewindTarget): Promise<readonly SessionRecord[]> {
  return target.records ? target.records() : (await loadSession(target.store.file)).records;
}

export async function rewindState(target: RewindTarget): Promise<RewindState> {
  const records = await recordsOf(target);
  const all = await storeOf(target).list();
  const byId = new Map(all.map((checkpoint) => [checkpoint.id, checkpoint]));
  const turns = turnsOf(records).map((turn) => {
    const checkpoint = byId.get(turn.checkpointId);
    return {
      turn: turn.turn,
      at: checkpoint?.at ?? turn.at,
      prompt: checkpoint?.label ?? promptAfter(records, turn.record),
      files: (checkpoint?.files ?? []).map((file) => shownPath(target.workspace, file.path)),
    };
  });
  return { turns, canUndo: all.at(-1)?.kind === "undo" };
}

export async function rewind(target: RewindTarget, request: RewindRequest): Promise<RewindOutcome> {
  const records = await recordsOf(target);
  const store = storeOf(target);
  const all = await store.list();
  const plan = "undo" in request ? undoPlan(all) : turnPlan(records, all, request);
  const changed = await changedOutside(target.workspace, all, plan.files);
  if (changed.length > 0 && !request.force) return { status: "changed_outside", files: changed };
  const snapshot = await store.open("undo", plan.label, {
    at: target.now(),
    ...(plan.conversationTo === null ? {} : { conversationTo: records.length }),
  });
  const files = await restoreFiles(target.workspace, store, { snapshot, files: plan.files });
  let history: ChatMessage[] | null = null;
  if (plan.conversationTo !== null) {
    history = historyBefore(records, plan.conversationTo);
    await target.store.append({
      type: "rewind",
      to: plan.conversationTo,
      messages: history,
      at: target.now().toISOString(),
      branch: rewoundBranchName(records),
    });
  }
  const kept = plan.kept.map((path) => shownPath(target.workspace, path));
  const note = kept.length > 0 ? keptFilesNote(kept) : null;
  return { status: "done", prompt: plan.prompt, files, history, note };
}

interface Plan {
  label: string;
  prompt: string | null;
  /** Path → blob of the content to restore (null: remove the file). */
  files: Map<string, string | null>;
  /** Paths the rewound turns changed that a conversation-only restore leaves as they are. */
  kept: string[];
  /** The record to return the conversation to; null leaves the conversation alone. */
  conversationTo: number | null;
}

function turnPlan(
  records: readonly SessionRecord[],
  all: readonly Checkpoint[],
  request: { turn: number; scope: RewindScope },
): Plan {
  const turns = turnsOf(records);
  const turn = turns[request.turn - 1];
  if (!Number.isInteger(request.turn) || turn === undefined) {
    throw new ReasonixError(
      "rewind.no_turn",
      `Cannot rewind to turn ${request.turn}: the conversation has ${turns.length} user turns`,
    );
  }
  const files = new Map<string, string | null>();
  // Oldest first, so each path gets its content from before the first change since this turn.
  for (const checkpoint of all.filter((c) => c.id >= turn.checkpointId)) {
    for (const file of checkpoint.files) if (!files.has(file.path)) files.set(file.path, file.before);
  }
  const label = all.find((c) => c.id === turn.checkpointId)?.label ?? promptAfter(records, turn.record);
  const keepCode = request.scope === "conversation";
  return {
    label: `rewind to turn ${request.turn} (${request.scope})`,
    prompt: request.scope === "code" ? null : label,
    files: keepCode ? new Map() : files,
    kept: keepCode ? [...files.keys()] : [],
    conversationTo: request.scope === "code" ? null : turn.record,
  };
}

function undoPlan(all: readonly Checkpoint[]): Plan {
  const last = all.at(-1);
  if (last?.kind !== "undo") {
    throw new ReasonixError(
      "rewind.nothing_to_undo",
      "Cannot undo a restore: the last change was not a restore",
    );
  }
  return {
    label: `undo: ${last.label}`,
    prompt: null,
    files: new Map(last.files.map((file) => [file.path, file.before])),
    kept: [],
    conversationTo: last.conversationTo ?? null,
  };
}

/** Paths whose content is not what Reasonix last wrote there (edited by hand, or by bash). */
async function changedOutside(
  ws: Workspace,
  all: readonly Checkpoint[],
  files: ReadonlyMap<string, string | null>,
): Promise<string[]> {
  const changed: string[] = [];
  for (const path of files.keys()) {
    const latest = all.findLast((checkpoint) => checkpoint.files.some((file) => file.path === path));
    const expected = latest?.files.find((file) => file.path === path)?.after ?? null;
    const now = await readConfined({ workspace: ws }, path).catch(() => undefined);
    const current = now === undefined ? undefined : now === null ? null : await sha256(now);
    if (current !== expected) changed.push(shownPath(ws, path));
  }
  return changed;
}

async function restoreFiles(
  ws: Workspace,
  store: CheckpointStore,
  options: { snapshot: Checkpoint; files: ReadonlyMap<string, string | null> },
): Promise<string[]> {
  const contents = new Map<string, Uint8Array | null>();
  for (const [path, blob] of options.files) {
    const bytes = blob === null ? null : await store.blob(blob);
    if (blob !== null && bytes === null) {
      throw new ReasonixError(
        "rewind.damaged",
        `Cannot restore "${shownPath(ws, path)}": its checkpoint content is missing or damaged`,
      );
    }
    contents.set(path, bytes);
  }
  const writes = [];
  for (const [path, after] of contents) {
    writes.push({ abs: path, before: await readConfined({ workspace: ws }, path).catch(() => null), after });
  }
  await store.record(options.snapshot, writes);
  for (const [path, bytes] of contents) {
    if (bytes !== null) await writeConfined({ workspace: ws }, path, bytes);
    else await removeFile(ws, path);
  }
  return [...contents.keys()].map((path) => shownPath(ws, path));
}

async function removeFile(ws: Workspace, path: string): Promise<void> {
  try {
    await assertStillInside(ws, path);
    await Deno.remove(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** The turn's prompt from the session itself, for a turn whose checkpoint is damaged or gone. */
function promptAfter(records: readonly SessionRecord[], from: number): string {
  for (const record of records.slice(from)) {
    if (record.type === "message" && record.message.role === "user") return typedText(record.message.content);
  }
  return "";
}

function storeOf(target: RewindTarget): CheckpointStore {
  return new CheckpointStore(checkpointDirFor(target.store.file));
}

function shownPath(ws: Workspace, path: string): string {
  const rel = relative(ws.root, path);
  return rel.startsWith("..") ? path : rel;
}
