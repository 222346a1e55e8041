/**
 * @module
 * `reasonix review [--base REF | --commit SHA] [--json]`: the review skill on the current change,
 * headless and read-only (plan mode: the host refuses every writer), through the same runner as
 * `reasonix run`; `--json` prints the run's JSON result.
 */
import { Command } from "commander";
import { launchDirectory } from "../../config/paths.ts";
import { runFlags } from "../../config/run_flags.ts";
import { ReasonixError } from "../../lib/errors.ts";
import type { ReviewRange } from "../../control/mod.ts";

/** The command's options; cli.ts runs `startReview` as its action (only entry files set the exit status). */
export function reviewCommand(): Command {
  return new Command("review")
    .description("Review the current change with the review skill, read-only, and print the review")
    .option("--base <ref>", "review the changes since the merge base with this branch or revision")
    .option("--commit <sha>", "review one commit")
    .option("--json", "print the run's JSON result (as run --output-format json)")
    .option("--model <ref>", "provider name, model name, or provider/model")
    .option("--effort <level>", "auto, disabled, low, high or max")
    .option("--dir <path>", "workspace directory (default: the current directory)");
}

/** Runs the review; resolves to the error code of a failure already shown, or null. */
export async function startReview(opts: Record<string, unknown>): Promise<string | null> {
  const range = reviewRange(opts);
  const { runHeadless } = await import("./run.ts");
  const { terminalIo } = await import("./terminal_io.ts");
  const report = await runHeadless({
    task: "review",
    prepare: async (controller) => {
      const ops = controller.workspaceOps;
      if (ops === undefined) {
        throw new ReasonixError("review.unavailable", "This session cannot read the change");
      }
      return await ops.review(range);
    },
    boot: {
      cwd: launchDirectory(),
      ...(opts.dir ? { dir: String(opts.dir) } : {}),
      flags: { ...runFlags({ ...opts, addDir: [], allowedTools: [] }), permissionMode: "plan" },
    },
    outputFormat: opts.json ? "json" : "text",
    eventsJsonl: false,
    print: !opts.json,
    showThinking: false,
    ...terminalIo(),
  });
  return report.errorCode;
}

function reviewRange(opts: Record<string, unknown>): ReviewRange {
  if (opts.base !== undefined && opts.commit !== undefined) {
    throw new ReasonixError("usage.conflicting_options", "Cannot combine --base with --commit");
  }
  if (opts.base !== undefined) return { kind: "base", ref: String(opts.base) };
  if (opts.commit !== undefined) return { kind: "commit", sha: String(opts.commit) };
  return { kind: "worktree" };
}
