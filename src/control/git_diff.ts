/**
 * @module
 * `/diff`: the workspace's uncommitted changes against HEAD (or against nothing before the first
 * commit) plus the untracked files, read with git through the session's sandbox.
 */
import type { Sandbox } from "../sandbox/sandbox.ts";

export type WorkspaceDiff =
  | { kind: "not_git" }
  | { kind: "failed"; message: string }
  | { kind: "diff"; patch: string; untracked: string[]; truncated: boolean };

const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const MAX_BYTES = 512 * 1024;
const TIMEOUT_MS = 15_000;

export async function workspaceDiff(sandbox: Sandbox, root: string): Promise<WorkspaceDiff> {
  const git = (...args: string[]) => run(sandbox, root, args);
  const inside = await git("rev-parse", "--is-inside-work-tree");
  if (inside.exitCode !== 0) return notGitOr(inside.output);
  if (inside.output.trim() !== "true") return { kind: "not_git" };
  const head = await git("rev-parse", "--verify", "--quiet", "HEAD");
  const base = head.exitCode === 0 ? "HEAD" : EMPTY_TREE;
  const diff = await git("-c", "core.quotepath=off", "diff", "--no-color", "--no-ext-diff", base, "--");
  if (diff.exitCode !== 0) return { kind: "failed", message: diff.output.trim() };
  const others = await git("-c", "core.quotepath=off", "ls-files", "--others", "--exclude-standard");
  const untracked = others.exitCode === 0 ? others.output.split("\n").filter((line) => line !== "") : [];
  return { kind: "diff", patch: diff.output, untracked, truncated: diff.droppedBytes > 0 };
}

function notGitOr(output: string): WorkspaceDiff {
  return /not a git repository/i.test(output)
    ? { kind: "not_git" }
    : { kind: "failed", message: output.trim() };
}

function run(sandbox: Sandbox, cwd: string, args: string[]) {
  return sandbox.runArgv(["git", ...args], {
    cwd,
    signal: AbortSignal.timeout(TIMEOUT_MS),
    timeoutMs: TIMEOUT_MS,
    maxOutputBytes: MAX_BYTES,
  });
}
