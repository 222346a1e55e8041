/**
 * @module
 * The branches of a session, read from its records. The file stays one append-only line of records;
 * a branch is a name for a state of it: "the line after the first `head` records". A `branch` record
 * forks the current line, a `switch` record returns to another branch's head (replacing the replayed
 * history, like a rewind), and a conversation `rewind` leaves the abandoned line as a branch. The line
 * starts as `main`, so files written before branches existed read as one branch (plus one per rewind).
 */
import type { SessionRecord } from "./store.ts";
import { turnsOf } from "./turns.ts";

export const MAIN_BRANCH = "main";
const REWOUND_PREFIX = "before-rewind-";
const NAME = /^[\p{L}\p{N}._-]{1,40}$/u;

export interface Branch {
  name: string;
  /** The branch it forked from; null for `main`. */
  parent: string | null;
  /** It shares the parent's line as it stood after the first `forkAt` records. */
  forkAt: number;
  /** Its own state: the line after the first `head` records. */
  head: number;
}

export interface BranchTree {
  current: string;
  /** In order of creation, `main` first. */
  branches: Branch[];
}

export function branchTree(records: readonly SessionRecord[]): BranchTree {
  const byName = new Map<string, Branch>([[MAIN_BRANCH, {
    name: MAIN_BRANCH,
    parent: null,
    forkAt: 0,
    head: 0,
  }]]);
  let current = MAIN_BRANCH;
  let rewinds = 0;
  const add = (branch: Branch) => byName.set(branch.name, branch);
  records.forEach((record, index) => {
    if (record.type === "branch") {
      add({ name: record.name, parent: current, forkAt: index, head: index });
      current = record.name;
    } else if (record.type === "switch") {
      current = record.name;
      if (!byName.has(current)) add({ name: current, parent: null, forkAt: 0, head: index });
    } else if (record.type === "rewind") {
      const name = record.branch ?? freeName(byName, REWOUND_PREFIX, ++rewinds);
      add({ name, parent: current, forkAt: Math.min(record.to, index), head: index });
    }
    byName.get(current)!.head = index + 1;
  });
  return { current, branches: [...byName.values()] };
}

/** The name a conversation rewind gives the line it leaves: `before-rewind-N`, never one in use. */
export function rewoundBranchName(records: readonly SessionRecord[]): string {
  const tree = branchTree(records);
  const taken = new Map(tree.branches.map((branch) => [branch.name, branch]));
  const rewinds = records.filter((record) => record.type === "rewind").length;
  return freeName(taken, REWOUND_PREFIX, rewinds + 1);
}

/** `branch-N` for a `/branch` without a name. */
export function newBranchName(records: readonly SessionRecord[]): string {
  const taken = new Map(branchTree(records).branches.map((branch) => [branch.name, branch]));
  return freeName(taken, "branch-", taken.size);
}

/** Null when `name` can name a branch, else why not. */
export function invalidBranchName(name: string): string | null {
  return NAME.test(name)
    ? null
    : `"${name}" is not a branch name: use up to 40 letters, digits, ".", "_" or "-"`;
}

/** What `/tree` shows of one branch. */
export interface BranchSummary {
  name: string;
  current: boolean;
  parent: string | null;
  /** User turns the branch shares with its parent. */
  forkTurn: number;
  turns: number;
  lastPrompt: string | null;
}

export function branchSummaries(records: readonly SessionRecord[]): BranchSummary[] {
  const tree = branchTree(records);
  return tree.branches.map((branch) => {
    const turns = turnsOf(records, branch.head);
    const last = turns.at(-1);
    return {
      name: branch.name,
      current: branch.name === tree.current,
      parent: branch.parent,
      forkTurn: branch.parent === null ? 0 : turnsOf(records, branch.forkAt).length,
      turns: turns.length,
      lastPrompt: last ? promptAfter(records, last.record, branch.head) : null,
    };
  });
}

/** The text of the turn entry that follows a turn's checkpoint event. */
function promptAfter(records: readonly SessionRecord[], from: number, end: number): string | null {
  for (let index = from; index < end; index++) {
    const record = records[index]!;
    if (record.type === "entry" && record.entry.kind === "turn") return record.entry.text;
  }
  return null;
}

function freeName(taken: ReadonlyMap<string, unknown>, prefix: string, start: number): string {
  let n = Math.max(1, start);
  while (taken.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}
