/**
 * @module
 * The `reasonix session` command tree. Only the parsing lives here; each action loads its module when
 * it runs, so `--help` and every other command never load them.
 */
import { Command } from "commander";
import { positiveNumber } from "./option_values.ts";
import { sessionRewindCommands } from "./session_rewind_cmd.ts";

type Opts = { json?: boolean; dir?: string };

export function sessionCommand(): Command {
  const session = new Command("session").description("Inspect stored sessions (redacted)");
  const load = () => import("./session_cmd.ts");
  session.command("list").description("This workspace's sessions, latest activity first")
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (opts: Opts) => await (await load()).sessionListCmd(opts));
  session.command("show").description("Print a session's transcript")
    .argument("<session>", `"latest", an id or unique prefix, a path, or a unique title substring`)
    .option("--reasoning", "include the model's reasoning").option("--json", "machine-readable output")
    .option("--dir <path>", "workspace directory")
    .action(async (query: string, opts: Opts & { reasoning?: boolean }) =>
      await (await load()).sessionShowCmd(query, opts)
    );
  session.command("status").description("One session's turns, cost, last turn and writer")
    .argument("[session]", `as for "show" (default: latest)`)
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (query: string | undefined, opts: Opts) =>
      await (await load()).sessionStatusCmd(query, opts)
    );
  session.command("search").description("Search saved sessions by words (BM25), best match first")
    .argument("<query...>", "the words to look for")
    .option("--global", "every workspace's sessions and the compaction archives, not just this one's")
    .option("--limit <n>", "results to show, 1-20 (default 5)", positiveNumber("--limit"))
    .option("--json", "machine-readable output").option("--dir <path>", "workspace directory")
    .action(async (words: string[], opts: Opts & { global?: boolean; limit?: number }) => {
      const { sessionSearchCmd } = await import("./session_search_cmd.ts");
      await sessionSearchCmd(words.join(" "), opts);
    });
  sessionRewindCommands(session);
  return session;
}
