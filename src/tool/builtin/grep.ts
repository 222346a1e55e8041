import { z } from "zod";
import { defineTool, type ToolContext, ToolError, type Workspace } from "../tool.ts";
import { displayPath, resolveReadPath } from "../workspace_paths.ts";
import { hasRipgrep, listFiles, relativeSlash } from "./_file_walk.ts";
import { compileGlob, globMatches } from "./_glob_match.ts";
import {
  type FileHits,
  type SearchOptions,
  searchTreeWithRg,
  searchWithJs,
  searchWithRg,
} from "./_grep_search.ts";
import { forbiddenPaths, isInsideAny } from "../workspace_paths.ts";
import { HitLines } from "./_grep_format.ts";

export const GREP_MAX_MATCHES = 200;
const MAX_LINE_CHARS = 500;

const DESCRIPTION =
  `Search file contents with a regular expression (ripgrep syntax); matches come as "line:text" under their path. Skips ignored and binary files, .git and node_modules. Stops at 200 matches: narrow the search to see more.`;

const parameters = z.object({
  pattern: z.string().min(1).describe("Regular expression"),
  path: z.string().optional().describe("File or directory (default: the workspace root)"),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts"'),
  case_insensitive: z.boolean().optional().describe("Ignore case (default false)"),
  context: z.number().int().min(0).max(10).optional().describe("Lines of context around each match (0-10)"),
  output_mode: z.enum(["content", "files_with_matches", "count"]).optional().describe(
    'What to return: "content" (default), "files_with_matches" or "count"',
  ),
});

type GrepArgs = z.infer<typeof parameters>;
type OutputMode = NonNullable<GrepArgs["output_mode"]>;

export const grepTool = defineTool({
  name: "grep",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  truncationHint: "narrow the pattern, path or glob",
  async execute(args, ctx) {
    const mode: OutputMode = args.output_mode ?? "content";
    const search: SearchOptions = {
      pattern: args.pattern,
      caseInsensitive: args.case_insensitive ?? false,
      context: mode === "content" ? args.context ?? 0 : 0,
      enough: (found) =>
        mode === "content" ? totalMatches(found) > GREP_MAX_MATCHES : found.length > GREP_MAX_MATCHES,
    };
    const found = await searchFiles(args, ctx, search, mode);
    const data = {
      kind: "search" as const,
      pattern: args.pattern,
      matches: totalMatches(found),
      files: found.length,
    };
    if (found.length === 0) {
      return { output: `No matches for "${args.pattern}" in ${args.path ?? "."}`, data };
    }
    return { ...render(ctx.workspace, found, { mode, context: search.context }), data };
  },
});

async function searchFiles(args: GrepArgs, ctx: ToolContext, search: SearchOptions, mode: OutputMode) {
  if (await hasRipgrep(ctx)) {
    const tree = await treeSearch(args, ctx, search, mode);
    if (tree) return tree;
  }
  const files = await candidateFiles(args, ctx);
  return (await hasRipgrep(ctx) ? await searchWithRg(ctx, files, search) : null) ??
    await searchWithJs(ctx, files, search);
}

/** The fast path: a directory searched by one rg walk, filtered here by glob and forbidden paths. */
async function treeSearch(args: GrepArgs, ctx: ToolContext, search: SearchOptions, mode: OutputMode) {
  const base = await resolveReadPath(ctx.workspace, args.path ?? ".");
  const info = await Deno.stat(base).catch(() => null);
  if (!info?.isDirectory) return null;
  const glob = args.glob === undefined ? null : compileUserGlob(args.glob);
  const forbidden = await forbiddenPaths(ctx.workspace);
  return await searchTreeWithRg(ctx, base, {
    ...search,
    keep: (file) =>
      !isInsideAny(file, forbidden) && (glob === null || globMatches(glob, relativeSlash(base, file))),
    ...(mode === "content" ? { perFileCap: GREP_MAX_MATCHES + 1 } : {}),
  });
}

function compileUserGlob(pattern: string) {
  try {
    return compileGlob(pattern);
  } catch {
    throw new ToolError("tool.invalid_pattern", `Cannot use glob "${pattern}": it is not a valid pattern`);
  }
}

async function candidateFiles(args: GrepArgs, ctx: ToolContext): Promise<string[]> {
  const input = args.path ?? ".";
  const base = await resolveReadPath(ctx.workspace, input);
  const info = await Deno.stat(base).catch(() => null);
  if (info === null) {
    throw new ToolError("tool.not_found", `Cannot access "${input}": no such file or directory`);
  }
  if (info.isFile) return [base];
  const files = await listFiles(ctx, base, { skipNodeModules: true });
  if (args.glob === undefined) return files;
  const glob = compileUserGlob(args.glob);
  return files.filter((file) => globMatches(glob, relativeSlash(base, file)));
}

function totalMatches(found: readonly FileHits[]): number {
  return found.reduce((sum, entry) => sum + entry.matches, 0);
}

function render(ws: Workspace, found: FileHits[], options: { mode: OutputMode; context: number }) {
  if (options.mode !== "content") {
    const shown = found.slice(0, GREP_MAX_MATCHES).map((entry) => {
      const path = displayPath(ws, entry.file);
      return options.mode === "count" ? `${path}:${entry.matches}` : path;
    });
    const cut = found.length > GREP_MAX_MATCHES;
    if (cut) shown.push(`... (truncated at ${GREP_MAX_MATCHES} files)`);
    return { output: shown.join("\n"), truncated: cut || undefined };
  }
  const out = new HitLines(options.context);
  let matches = 0;
  for (const entry of found) {
    const path = displayPath(ws, entry.file);
    for (const hit of entry.hits) {
      if (hit.match && matches === GREP_MAX_MATCHES) {
        out.note(`... (truncated at ${GREP_MAX_MATCHES} matches)`);
        return { output: out.text(), truncated: true };
      }
      out.add(path, hit, clip(hit.text));
      if (hit.match) matches++;
    }
  }
  return { output: out.text() };
}

function clip(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… [line clipped]` : text;
}
