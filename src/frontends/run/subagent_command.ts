/**
 * @module
 * `reasonix subagent try|run <name> <task…>`: one profile run headless as a child of a fresh session,
 * through that session's SubagentPort (no loop of its own). `try` is a read-only preview (the child gets no
 * writer tool and the session is in plan mode); `run` runs it under the session's permission policy. The
 * child's answer goes to stdout (escaped), or `--json`; a failed child exits non-zero. Both are fenced
 * like `run` (fence.ts).
 */
import type { Command } from "commander";
import type { Controller, StopSignal } from "../../control/mod.ts";
import { launchDirectory } from "../../config/paths.ts";
import { runFlags } from "../../config/run_flags.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { stripControls, terminalSafeJson } from "../../lib/terminal_text.ts";

type Opts = Record<string, unknown>;
type Kind = "try" | "run";

/** Adds `try` and `run` to the `subagent` command (cli.ts does, so the admin half loads no runner). */
export function addProfileRunCommands(root: Command): Command {
  for (const kind of ["try", "run"] as const) {
    const summary = kind === "try"
      ? "Preview a profile on a task, read-only: every writer is refused"
      : "Run a profile on a task as a subagent, under the session's permission policy";
    const command = root.command(kind).description(summary)
      .argument("<name>", "the profile")
      .argument("<task...>", "what the subagent should do");
    // `try` is always plan mode; `run` takes the session's mode like `reasonix run`.
    if (kind === "run") {
      command.option(
        "--permission-mode <mode>",
        "ask (default: writes and bash refused headless), auto, yolo or plan",
      );
    }
    command.option("--json", "print {ok, result, ref, session_id} as JSON")
      .option("--model <ref>", "the session's model (the profile's own model still wins for the child)")
      .option("--dir <path>", "workspace directory (default: the current directory)")
      .action((name: string, words: string[], opts: Opts) => runProfileCmd(kind, name, words, opts));
  }
  return root;
}

async function runProfileCmd(kind: Kind, name: string, words: string[], opts: Opts): Promise<void> {
  const task = words.join(" ").trim();
  if (task === "") throw new ReasonixError("usage.missing_task", `Give "${name}" a task`);
  const control = await import("../../control/mod.ts");
  const { onStopSignals } = await import("../../sandbox/stop_signals.ts");
  const abort = new AbortController();
  let stopped: StopSignal | null = null;
  const remove = onStopSignals((signal) => {
    stopped ??= signal;
    abort.abort(signal);
  });
  let controller: Controller | null = null;
  try {
    const flags = runFlags({ ...opts, addDir: [], allowedTools: [] });
    controller = await control.bootController({
      cwd: launchDirectory(),
      ...(opts.dir ? { dir: String(opts.dir) } : {}),
      flags: kind === "try" ? { ...flags, permissionMode: "plan" } : flags,
      headless: true,
    });
    const runProfile = controller.workspaceOps?.runProfile;
    if (runProfile === undefined) {
      throw new ReasonixError("subagent.unavailable", "This session cannot start subagents");
    }
    const outcome = await runProfile({ name, task, readOnly: kind === "try", signal: abort.signal });
    if (stopped) {
      const { code, message } = control.stopError(stopped);
      throw new ReasonixError(code, message);
    }
    if (opts.json) {
      const { ok, text: result, ref, sessionId } = outcome;
      const json = { schema_version: 1, command: `subagent.${kind}`, ok, result, ref, session_id: sessionId };
      console.log(terminalSafeJson(JSON.stringify(json)));
    } else if (outcome.ok) console.log(stripControls(outcome.text));
    if (!outcome.ok) {
      throw new ReasonixError("subagent.failed", `Subagent "${name}" failed: ${stripControls(outcome.text)}`);
    }
  } finally {
    remove();
    await controller?.close();
  }
}
