/**
 * @module
 * `reasonix session search`: the `history` tool's search for a person, with the same redaction as
 * `session show` (known secret values and inline credentials).
 */
import type { Paths } from "../config/paths.ts";
import { archiveDir } from "../session/archive.ts";
import { type HistorySearchResult, searchHistory } from "../session/history_search.ts";
import type { AdminContext } from "./admin.ts";
import { redactor } from "./session_report.ts";

export type { HistoryHit, HistorySearchResult } from "../session/history_search.ts";

/** Where saved sessions and compaction archives live under the state root. */
export function historyDirs(paths: Paths): { sessionsDir: string; archiveDir: string } {
  return { sessionsDir: paths.sessionsDir, archiveDir: archiveDir(paths.stateHome) };
}

export async function sessionSearch(
  ctx: AdminContext,
  query: string,
  options: { global?: boolean; limit?: number },
): Promise<HistorySearchResult> {
  return await searchHistory({ ...historyDirs(ctx.paths), workspace: ctx.workspace }, {
    query,
    scope: options.global ? "global" : "project",
    ...(options.limit !== undefined ? { limit: options.limit } : {}),
    redact: await redactor(ctx),
  });
}
