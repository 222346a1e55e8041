/**
 * @module
 * Registers `reasonix session checkpoints` and `reasonix session rewind` on the `session` command
 * group; the work loads only when one of them runs.
 */
import type { Command } from "commander";
import type { RewindOptions } from "./_session_rewind_run.ts";
import { positiveNumber } from "./option_values.ts";

export function sessionRewindCommands(session: Command): void {
  session.command("checkpoints").description("List a session's user turns and the files each changed")
    .argument("<session>", 'session id, unique id prefix, path or "latest"')
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (query: string, opts: { json?: boolean; dir?: string }) => {
      await (await import("./_session_rewind_run.ts")).checkpointsCmd(query, opts);
    });
  session.command("rewind").description("Go back to before a user turn: code, conversation or both")
    .argument("<session>", 'session id, unique id prefix, path or "latest"')
    .requiredOption(
      "--turn <n>",
      "the 1-based user turn to go back to (the state before it ran)",
      positiveNumber("--turn"),
    )
    .option("--code", "restore the files the file tools changed").option(
      "--conversation",
      "restore the conversation",
    )
    .option("--both", "restore code and conversation").option(
      "--yes",
      "overwrite files changed outside Reasonix",
    )
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (query: string, opts: RewindOptions) => {
      await (await import("./_session_rewind_run.ts")).rewindCmd(query, opts);
    });
}
