/**
 * @module
 * `history`: the model searches saved conversations (BM25, src/session/history_search.ts) and reads
 * the messages around a hit. Proxied (reached through `use_capability`): most turns never need it, so
 * its schema stays out of the tools array (docs/TOOLS.md, "history"). Scope "global" reads other
 * projects' conversations, which a prompt injection could then send out (web_fetch): every global call
 * asks a person afresh, in every mode, and fails closed where nobody can answer.
 */
import { z } from "zod";
import {
  type HistoryDirs,
  type HistoryHit,
  type HistorySearchResult,
  type HistoryWindow,
  historyWindow,
  SEARCH_LIMIT,
  searchHistory,
  WINDOW_LIMIT,
} from "../../session/history_search.ts";
import { defineTool, type ToolContext, ToolError, type ToolSpec } from "../tool.ts";
import { theirReason } from "../consent.ts";

export const HISTORY_TOOL = "history";

const DESCRIPTION =
  `Search past conversations (saved sessions: earlier ones, and what a compaction removed from this one) by words (BM25). "search": query, scope "project" (default: this workspace) or "global" (every workspace and the compaction archives; asks the user each time), optional kind (roles) and limit. "around": the messages before and after one result (its session and message_index).`;

const parameters = z.object({
  operation: z.enum(["search", "around"]).optional().describe('"search" (default) or "around"'),
  query: z.string().max(500).optional().describe("For search: the words to look for"),
  scope: z.enum(["project", "global"]).optional().describe('"project" (default) or "global"'),
  kind: z.array(z.enum(["user", "assistant", "tool"])).optional().describe(
    "For search: only these roles",
  ),
  limit: z.number().int().min(1).max(SEARCH_LIMIT.max).optional().describe(
    `For search: 1-${SEARCH_LIMIT.max} results (default ${SEARCH_LIMIT.default})`,
  ),
  session: z.string().max(80).optional().describe("For around: a result's session"),
  message_index: z.number().int().min(0).optional().describe("For around: a result's message index"),
  before: z.number().int().min(0).max(WINDOW_LIMIT.max).optional().describe(
    `For around: messages before (default ${WINDOW_LIMIT.default})`,
  ),
  after: z.number().int().min(0).max(WINDOW_LIMIT.max).optional().describe(
    `For around: messages after (default ${WINDOW_LIMIT.default})`,
  ),
});

export type HistoryArgs = z.infer<typeof parameters>;

/** The tool over `dirs` (the state root's sessions and archive, and this session's workspace). */
export function historyTool(dirs: HistoryDirs): ToolSpec<HistoryArgs> {
  return defineTool({
    name: HISTORY_TOOL,
    description: DESCRIPTION,
    parameters,
    readOnly: true,
    async execute(args, ctx) {
      const scope = args.scope ?? "project";
      if (scope === "global") await askGlobal(args, ctx);
      if ((args.operation ?? "search") === "around") return { output: await around(dirs, args, scope) };
      const query = args.query?.trim() ?? "";
      if (query === "") {
        throw new ToolError("tool.invalid_args", 'history "search" needs a query: the words to look for');
      }
      const result = await searchHistory(dirs, {
        query,
        scope,
        ...(args.limit ? { limit: args.limit } : {}),
        ...(args.kind ? { roles: args.kind } : {}),
      });
      const sessions = new Set(result.hits.map((hit) => hit.session)).size;
      return {
        output: formatSearch(result),
        data: { kind: "search", pattern: query, matches: result.hits.length, files: sessions },
      };
    },
  });
}

const HOW_TO_ALLOW =
  "the user can run `reasonix session search QUERY --global` themselves and share what matters";

/** A global call runs only on a person's fresh yes; anything else is a tool error the model reads. */
async function askGlobal(args: HistoryArgs, ctx: ToolContext): Promise<void> {
  const operation = args.operation ?? "search";
  const what = operation === "around"
    ? `read session ${JSON.stringify(args.session ?? "")} of another workspace or archive`
    : `search every workspace's conversations and the compaction archives for ${
      JSON.stringify(args.query ?? "")
    }`;
  const consent = ctx.consent;
  if (!consent?.interactive) {
    throw new ToolError(
      "history.needs_approval",
      `Not run: a "global" history ${operation} reads other projects' conversations and needs a person's ` +
        `approval, and nobody can give it here (a headless run or a subagent). Use scope "project", or ` +
        HOW_TO_ALLOW,
    );
  }
  const answer = await consent.confirm({
    callId: ctx.callId ?? "",
    tool: HISTORY_TOOL,
    arguments: JSON.stringify(args),
    subject: `history ${operation} (global)`,
    reason: `History: ${what}; other projects' conversations may hold private text`,
  }, ctx.signal);
  switch (answer.kind) {
    case "approved":
      return;
    case "declined":
      throw new ToolError(
        "permission.denied",
        `The user declined the global history ${operation}: nothing was read${theirReason(answer.reason)}`,
      );
    case "cancelled":
      throw new ToolError("tool.aborted", "Not run: the turn was cancelled while it waited for approval");
    case "unanswerable":
      throw new ToolError(
        "history.needs_approval",
        `Not run: a "global" history ${operation} needs a person's approval and nobody can answer here. ` +
          `Use scope "project", or ${HOW_TO_ALLOW}`,
      );
  }
}

async function around(dirs: HistoryDirs, args: HistoryArgs, scope: "project" | "global"): Promise<string> {
  if (!args.session || args.message_index === undefined) {
    throw new ToolError(
      "tool.invalid_args",
      'history "around" needs session and message_index, both from a search result',
    );
  }
  const window = await historyWindow(dirs, {
    scope,
    session: args.session,
    seq: args.message_index,
    ...(args.before !== undefined ? { before: args.before } : {}),
    ...(args.after !== undefined ? { after: args.after } : {}),
  });
  if (window === undefined) {
    const wider = scope === "project" ? ' (a result of a "global" search needs scope "global")' : "";
    throw new ToolError("history.not_found", `There is no saved session "${args.session}" here${wider}`);
  }
  return formatWindow(window);
}

export function formatSearch(result: HistorySearchResult): string {
  const { stats } = result;
  const where = result.scope === "project" ? "this project's sessions" : "every project and the archives";
  const read = `searched ${stats.files} file${stats.files === 1 ? "" : "s"}${
    stats.capped ? ", the oldest left out (budget)" : ""
  }`;
  if (result.terms.length === 0) {
    return `"${result.query}" holds only common words, which are not searched: use the distinctive words of what you look for.`;
  }
  if (result.hits.length === 0) {
    const retry = result.scope === "project"
      ? 'fewer or broader words, other spellings, or scope "global" (every project and the compaction archives)'
      : "fewer or broader words, or other spellings";
    return `No saved message matches "${result.query}" in ${where} (${read}). Retry with ${retry}.`;
  }
  const lines = [`${result.hits.length} result(s) for "${result.query}" in ${where} (${read}), best first:`];
  for (const hit of result.hits) lines.push(formatHit(hit));
  lines.push(
    'More context: {"operation":"around","session":"<session>","message_index":<n>' +
      (result.scope === "global" ? ',"scope":"global"}' : "}"),
  );
  return lines.join("\n");
}

function formatHit(hit: HistoryHit): string {
  const who = hit.tool ? `tool ${hit.tool}` : hit.role;
  const from = hit.origin ? ` (from session ${hit.origin})` : "";
  const place = hit.workspace ? ` in ${hit.workspace}` : "";
  return `- session ${hit.session} message_index ${hit.seq} · ${who} · ${
    time(hit.at)
  }${from}${place}\n  ${hit.snippet}`;
}

export function formatWindow(window: HistoryWindow): string {
  const lines = [`Session ${window.session}${window.workspace ? ` (${window.workspace})` : ""}:`];
  if (window.more.before > 0) lines.push(`(${window.more.before} earlier message(s) not shown)`);
  for (const message of window.messages) {
    const who = message.tool ? `tool ${message.tool}` : message.role;
    const mark = message.anchor ? " ◀ the result" : "";
    lines.push(`[${message.seq}] ${who} · ${time(message.at)}${mark}\n${message.text}`);
  }
  if (window.more.after > 0) lines.push(`(${window.more.after} later message(s) not shown)`);
  return lines.join("\n\n");
}

/** ISO time to the second: the milliseconds are noise to the model. */
function time(at: string): string {
  return at.replace(/\.\d{3}Z$/, "Z");
}
