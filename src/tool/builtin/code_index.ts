import { z } from "zod";
import { kindMatches, SYMBOL_KINDS } from "../parse/symbols.ts";
import { defineTool, type ToolContext, ToolError, type ToolResult } from "../tool.ts";
import { displayPath, notFound, resolveReadPath } from "../workspace_paths.ts";
import { listFiles } from "./_file_walk.ts";
import { groupRuns } from "./_path_groups.ts";
import {
  INDEX_MAX_FILE_BYTES,
  type IndexedFile,
  type IndexedSymbol,
  isIndexable,
  type RefreshReport,
  symbolIndexFor,
} from "./_symbol_index.ts";

export const CODE_INDEX_DEFAULT_LIMIT = 50;
export const CODE_INDEX_MAX_LIMIT = 200;
const INDEX_MAX_FILES = 20_000;

const DESCRIPTION =
  `Find declarations (functions, classes, methods, types...) in TypeScript, JavaScript, Go and Python files via a parsed index. "search": names matching query (exact, prefix, then substring); "file": the symbols of one file; "stats": a summary.`;

const parameters = z.object({
  action: z.enum(["search", "file", "stats"]),
  query: z.string().optional().describe('For "search": a name, prefix or "Parent.method"'),
  path: z.string().optional().describe(
    'For "file": the file; otherwise a directory to limit to (default: the workspace)',
  ),
  kind: z.enum(SYMBOL_KINDS).optional().describe('Only this kind ("type" also matches classes etc.)'),
  limit: z.number().int().positive().optional().describe(
    `Maximum lines (default ${CODE_INDEX_DEFAULT_LIMIT}, at most ${CODE_INDEX_MAX_LIMIT})`,
  ),
});

type CodeIndexArgs = z.infer<typeof parameters>;

interface Hit {
  file: IndexedFile;
  symbol: IndexedSymbol;
  score: number;
}

export const codeIndexTool = defineTool({
  name: "code_index",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  truncationHint: "use a longer query, kind or path",
  execute(args, ctx) {
    if (args.action === "file") return listFile(args, ctx);
    if (args.action === "stats") return stats(args, ctx);
    return search(args, ctx);
  },
});

const NO_SYMBOLS = { kind: "symbols", matches: 0 } as const;

async function search(args: CodeIndexArgs, ctx: ToolContext): Promise<ToolResult> {
  const query = args.query?.trim() ?? "";
  if (query === "" && args.kind === undefined) {
    throw new ToolError(
      "tool.invalid_args",
      "Cannot search the code index: give query (a name or prefix), kind, or both",
    );
  }
  const report = await refreshScope(args, ctx);
  const hits: Hit[] = [];
  for (const file of report.files) {
    for (const symbol of file.symbols) {
      if (args.kind !== undefined && !kindMatches(args.kind, symbol.kind)) continue;
      const score = query === "" ? 0 : matchScore(symbol, query);
      if (score !== null) hits.push({ file, symbol, score });
    }
  }
  if (hits.length === 0) {
    const what = [query === "" ? "" : `"${query}"`, args.kind ?? ""].filter(Boolean).join(" of kind ");
    return { output: `No symbols match ${what} in ${report.files.length} indexed files`, data: NO_SYMBOLS };
  }
  hits.sort((a, b) => a.score - b.score);
  return formatLines(hits, args, ctx);
}

async function listFile(args: CodeIndexArgs, ctx: ToolContext): Promise<ToolResult> {
  if (args.path === undefined) {
    throw new ToolError("tool.invalid_args", 'Cannot list symbols: action "file" needs path');
  }
  const abs = await resolveReadPath(ctx.workspace, args.path);
  const info = await Deno.stat(abs).catch(() => null);
  if (info === null) throw notFound(args.path);
  if (!info.isFile) {
    throw new ToolError(
      "tool.not_a_file",
      `Cannot list symbols of "${args.path}": not a file; use action "search" with path to search a directory`,
    );
  }
  if (!isIndexable(abs)) {
    throw new ToolError(
      "tool.unsupported_language",
      `Cannot list symbols of "${args.path}": only TypeScript, JavaScript, Go and Python files are indexed; ` +
        "use grep instead",
    );
  }
  if (info.size > INDEX_MAX_FILE_BYTES) {
    throw new ToolError("tool.file_too_large", `Cannot index "${args.path}": it is larger than 1 MB`);
  }
  const report = await symbolIndexFor(ctx.workspace.root).refresh(ctx, [abs]);
  const file = report.files[0];
  if (file === undefined) {
    throw new ToolError(
      "tool.unsupported_file",
      `Cannot index "${args.path}": it is not a readable text file`,
    );
  }
  const hits = file.symbols
    .filter((symbol) => args.kind === undefined || kindMatches(args.kind, symbol.kind))
    .map((symbol) => ({ file, symbol, score: 0 }));
  if (hits.length === 0) {
    const kind = args.kind === undefined ? "symbols" : `symbols of kind ${args.kind}`;
    return { output: `No ${kind} in ${displayPath(ctx.workspace, abs)}`, data: NO_SYMBOLS };
  }
  return formatLines(hits, args, ctx);
}

async function stats(args: CodeIndexArgs, ctx: ToolContext): Promise<ToolResult> {
  const report = await refreshScope(args, ctx);
  const languages = new Map<string, number>();
  const kinds = new Map<string, number>();
  let symbols = 0;
  for (const file of report.files) {
    languages.set(file.language, (languages.get(file.language) ?? 0) + 1);
    for (const symbol of file.symbols) {
      if (args.kind !== undefined && !kindMatches(args.kind, symbol.kind)) continue;
      kinds.set(symbol.kind, (kinds.get(symbol.kind) ?? 0) + 1);
      symbols++;
    }
  }
  const lines = [
    `${report.files.length} files indexed${counts(languages)}, ${symbols} symbols${counts(kinds)}`,
    `Parsed ${report.parsed} new or changed files; skipped ${report.tooLarge} larger than 1 MB and ` +
    `${report.unreadable} unreadable`,
  ];
  return { output: lines.join("\n"), data: { kind: "symbols", matches: symbols } };
}

async function refreshScope(args: CodeIndexArgs, ctx: ToolContext): Promise<RefreshReport> {
  const input = args.path ?? ".";
  const base = await resolveReadPath(ctx.workspace, input);
  const info = await Deno.stat(base).catch(() => null);
  if (info === null) throw notFound(input);
  const index = symbolIndexFor(ctx.workspace.root);
  if (info.isFile) return index.refresh(ctx, [base]);
  const files = (await listFiles(ctx, base, { skipNodeModules: true })).filter(isIndexable);
  const capped = files.slice(0, INDEX_MAX_FILES);
  const complete = base === ctx.workspace.root && capped.length === files.length;
  return index.refresh(ctx, capped, { complete });
}

/** Lower is better: exact, exact ignoring case, prefix, prefix ignoring case, substring; null if none. */
function matchScore(symbol: IndexedSymbol, query: string): number | null {
  const dot = query.lastIndexOf(".");
  if (dot > 0 && dot < query.length - 1) {
    if (symbol.parent?.toLowerCase() !== query.slice(0, dot).toLowerCase()) return null;
    return nameScore(symbol.name, query.slice(dot + 1));
  }
  return nameScore(symbol.name, query);
}

function nameScore(name: string, query: string): number | null {
  const lower = name.toLowerCase();
  const wanted = query.toLowerCase();
  if (name === query) return 0;
  if (lower === wanted) return 1;
  if (name.startsWith(query)) return 2;
  if (lower.startsWith(wanted)) return 3;
  return lower.includes(wanted) ? 4 : null;
}

function formatLines(hits: Hit[], args: CodeIndexArgs, ctx: ToolContext): ToolResult {
  const limit = Math.min(args.limit ?? CODE_INDEX_DEFAULT_LIMIT, CODE_INDEX_MAX_LIMIT);
  const rows = hits.slice(0, limit).map(({ file, symbol }) => {
    const parent = symbol.parent === undefined ? "" : ` (${symbol.parent})`;
    return {
      path: displayPath(ctx.workspace, file.abs),
      text: `${symbol.line} ${symbol.kind} ${symbol.name}${parent}`,
    };
  });
  const rest = hits.length - rows.length;
  const more = rest > 0 ? `\n\n… ${rest} more; narrow with a longer query, kind or path, or raise limit` : "";
  const data = { kind: "symbols" as const, matches: hits.length };
  return { output: groupRuns(rows, ":") + more, data, ...(rest > 0 ? { truncated: true } : {}) };
}

function counts(map: Map<string, number>): string {
  if (map.size === 0) return "";
  const parts = [...map].sort(([a], [b]) => a < b ? -1 : 1).map(([key, count]) => `${key} ${count}`);
  return ` (${parts.join(", ")})`;
}
