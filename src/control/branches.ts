/**
 * @module
 * `/branch`, `/switch`, `/tree` for the Controller: fork the conversation here, or return to another
 * branch's head. Only the conversation moves: files on disk stay as they are (checkpoints and
 * `/rewind` handle code). A switch replays the branch's history byte for byte, so the next request
 * starts with the prefix the provider has cached.
 */
import { ReasonixError } from "../lib/errors.ts";
import type { ChatMessage } from "../provider/provider.ts";
import {
  branchSummaries,
  type BranchSummary,
  branchTree,
  invalidBranchName,
  newBranchName,
} from "../session/branches.ts";
import type { SessionRecord } from "../session/store.ts";
import { historyBefore } from "../session/turns.ts";

export type { BranchSummary };

/** What the slash commands call; the Controller provides it. */
export interface BranchPort {
  list(): BranchSummary[];
  /** Forks the conversation at this point onto a new branch (named `branch-N` without a name). */
  fork(name?: string): Promise<string>;
  switchTo(name: string): Promise<BranchSwitch>;
}

export interface BranchSwitch {
  name: string;
  /** User turns on the branch switched to. */
  turns: number;
}

/** Told to the model on the next turn after a switch: its files may not match that conversation. */
export const FILES_NOT_SWITCHED =
  "The conversation moved to another branch; files on disk were not switched and may differ from what this conversation last saw. Re-read a file before editing it.";

/** The session's one writer and its records (the Controller's rewind target fits). */
export interface BranchTarget {
  store: { append(record: SessionRecord): Promise<unknown> };
  records(): readonly SessionRecord[];
  now(): Date;
}

export async function forkBranch(target: BranchTarget, requested?: string): Promise<string> {
  const records = target.records();
  const name = requested?.trim() || newBranchName(records);
  const invalid = invalidBranchName(name);
  if (invalid) throw new ReasonixError("branch.invalid_name", `Cannot create branch: ${invalid}`);
  if (branchTree(records).branches.some((branch) => branch.name === name)) {
    throw new ReasonixError(
      "branch.exists",
      `Cannot create branch "${name}": a branch with that name exists`,
    );
  }
  await target.store.append({ type: "branch", name, at: target.now().toISOString() });
  return name;
}

/** Null when `name` is already the current branch. */
export async function switchBranch(
  target: BranchTarget,
  name: string,
): Promise<(BranchSwitch & { history: ChatMessage[] }) | null> {
  const records = target.records();
  const tree = branchTree(records);
  const branch = tree.branches.find((candidate) => candidate.name === name);
  if (!branch) {
    const names = tree.branches.map((candidate) => candidate.name).join(", ");
    throw new ReasonixError(
      "branch.not_found",
      `Cannot switch to "${name}": no such branch (have: ${names})`,
    );
  }
  if (name === tree.current) return null;
  const history = historyBefore(records, branch.head);
  await target.store.append({
    type: "switch",
    name,
    to: branch.head,
    messages: history,
    at: target.now().toISOString(),
  });
  const turns = branchSummaries(target.records()).find((summary) => summary.name === name)?.turns ?? 0;
  return { name, turns, history };
}

/** The port over one session: `guard` throws while a turn runs, `moved` is told after a switch. */
export function branchPort(
  target: BranchTarget,
  hooks: { guard(): void; moved(note: string): void },
): BranchPort {
  return {
    list: () => branchSummaries(target.records()),
    fork(name) {
      hooks.guard();
      return forkBranch(target, name);
    },
    async switchTo(name) {
      hooks.guard();
      const done = await switchBranch(target, name);
      if (!done) return { name, turns: branchSummaries(target.records()).find((b) => b.current)?.turns ?? 0 };
      hooks.moved(FILES_NOT_SWITCHED);
      return { name: done.name, turns: done.turns };
    },
  };
}
