/**
 * @module
 * `reasonix review`: the turn that runs the review skill headless on the current change. The change is
 * the working tree against HEAD (untracked files named), the working tree against the merge base with
 * `--base REF`, or one commit with `--commit SHA`, read with git through the session's sandbox. The
 * session's `review` skill (a project's own wins over ours) is pinned on the turn's tail; the run is in
 * plan mode, so no writer runs.
 */
import { ReasonixError } from "../lib/errors.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { type SkillCatalog, skillPin } from "../tool/skill/catalog.ts";
import type { TurnOptions } from "./turn_attachments.ts";
import { workspaceDiff } from "./git_diff.ts";

export type ReviewRange = { kind: "worktree" } | { kind: "base"; ref: string } | {
  kind: "commit";
  sha: string;
};

export interface ReviewTurn {
  text: string;
  options: TurnOptions;
}

const REVIEW_SKILL = "review";
const MAX_BYTES = 512 * 1024;
const TIMEOUT_MS = 15_000;
/** A revision as git spells one; never an option (a leading "-"). */
const REVISION = /^[A-Za-z0-9._/@{}~^][A-Za-z0-9._/@{}~^:+-]*$/;

export async function reviewTurn(
  session: { sandbox: Sandbox; root: string; skills: SkillCatalog | undefined },
  range: ReviewRange,
): Promise<ReviewTurn> {
  const skill = session.skills?.get(REVIEW_SKILL);
  if (skill === undefined) {
    throw new ReasonixError("review.no_skill", `There is no "${REVIEW_SKILL}" skill in this session`, {
      hint: "It is disabled by [skills] disabled_skills; remove it from that list",
    });
  }
  const change = await changeText(session.sandbox, session.root, range);
  const text = [
    `Review ${change.what}. Answer with the review itself (findings and a verdict); do not propose a plan.`,
    "",
    "```diff",
    change.patch.trimEnd(),
    "```",
    ...(change.note ? ["", change.note] : []),
  ].join("\n");
  return { text, options: { literal: true, pins: [skillPin(skill)] } };
}

async function changeText(sandbox: Sandbox, root: string, range: ReviewRange) {
  if (range.kind === "worktree") {
    const diff = await workspaceDiff(sandbox, root);
    if (diff.kind === "not_git") throw notGit(root);
    if (diff.kind === "failed") throw gitFailed(diff.message);
    if (diff.patch.trim() === "" && diff.untracked.length === 0) {
      throw new ReasonixError("review.no_changes", "Nothing to review: the working tree matches HEAD", {
        hint: "Name a base branch (--base main) or a commit (--commit <sha>)",
      });
    }
    const untracked = diff.untracked.length > 0
      ? `Untracked files (not in the diff; read them if they matter): ${diff.untracked.join(", ")}`
      : "";
    return {
      what: "the uncommitted changes in the working tree (against HEAD)",
      patch: diff.patch,
      note: notes(diff.truncated, untracked),
    };
  }
  const revision = range.kind === "base" ? range.ref : range.sha;
  if (!REVISION.test(revision)) {
    throw new ReasonixError("usage.bad_revision", `"${revision}" is not a git revision`);
  }
  const args = range.kind === "base"
    ? ["diff", "--no-color", "--no-ext-diff", "--merge-base", revision, "--"]
    : ["show", "--no-color", "--no-ext-diff", "--format=commit %H%nAuthor: %an%n%n%B", revision, "--"];
  const run = await sandbox.runArgv(["git", "-c", "core.quotepath=off", ...args], {
    cwd: root,
    signal: AbortSignal.timeout(TIMEOUT_MS),
    timeoutMs: TIMEOUT_MS,
    maxOutputBytes: MAX_BYTES,
  });
  if (run.exitCode !== 0) {
    if (/not a git repository/i.test(run.output)) throw notGit(root);
    throw gitFailed(run.output.trim());
  }
  if (run.output.trim() === "") {
    throw new ReasonixError("review.no_changes", `Nothing to review: no difference against "${revision}"`);
  }
  const what = range.kind === "base"
    ? `the changes since the merge base with "${revision}" (committed and uncommitted)`
    : `commit ${revision}`;
  return { what, patch: run.output, note: notes(run.droppedBytes > 0, "") };
}

function notes(truncated: boolean, extra: string): string {
  const cut = truncated ? "The diff was cut at 512 KB; read the remaining files with your tools." : "";
  return [cut, extra].filter((line) => line !== "").join("\n");
}

function notGit(root: string): ReasonixError {
  return new ReasonixError("review.not_git", `Cannot review: ${root} is not a git repository`);
}

function gitFailed(message: string): ReasonixError {
  return new ReasonixError("review.git_failed", `Cannot read the change with git: ${message.split("\n")[0]}`);
}
