import { z } from "zod";
import { defineTool, type ToolContext, ToolError, type Workspace } from "../tool.ts";
import { displayPath, resolveReadPath } from "../workspace_paths.ts";
import { hasRipgrep, listFiles, relativeSlash, searchBase } from "./_file_walk.ts";
import { compileGlob, globMatches } from "./_glob_match.ts";
import {
  type FileHits,
  type SearchOptions,
  type SearchResult,
  searchTreeWithRg,
  searchWithJs,
  searchWithRg,
} from "./_grep_search.ts";
import { screenFiles, skipReasonOf, SkipTally, tallyPaths } from "./_search_skips.ts";
import { forbiddenPaths, isDeniedAny } from "../workspace_paths.ts";
import { HitLines } from "./_grep_format.ts";

export const GREP_MAX_MATCHES = 200;
/** Wall-clock budget of one grep call unless `limits.grepTimeoutSeconds` says otherwise. */
export const GREP_TIMEOUT_SECONDS = 30;
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
    const timeoutSeconds = ctx.limits.grepTimeoutSeconds ?? GREP_TIMEOUT_SECONDS;
    const search: SearchOptions = {
      pattern: args.pattern,
      caseInsensitive: args.case_insensitive ?? false,
      context: mode === "content" ? args.context ?? 0 : 0,
      enough: (found) =>
        mode === "content" ? totalMatches(found) > GREP_MAX_MATCHES : found.length > GREP_MAX_MATCHES,
      deadline: Date.now() + timeoutSeconds * 1000,
    };
    const skipped = new SkipTally();
    const { found, timedOut } = await searchFiles(args, ctx, search, mode, skipped);
    const data = {
      kind: "search" as const,
      pattern: args.pattern,
      matches: totalMatches(found),
      files: found.length,
      ...(skipped.total > 0 ? { skipped: skipped.total } : {}),
      ...(timedOut ? { timedOut: true } : {}),
    };
    const notes = [
      ...(timedOut ? [`timed out after ${timeoutSeconds} s; results may be incomplete`] : []),
      ...(skipped.total > 0 ? [`skipped ${skipped.describe()}`] : []),
    ];
    if (found.length === 0) return { output: noMatches(args, notes), data };
    const shown = render(ctx.workspace, found, { mode, context: search.context });
    return { ...shown, output: [shown.output, ...notes.map((note) => `... ${note}`)].join("\n"), data };
  },
});

/** "No matches" only when every file was searched; otherwise it says what was not. */
function noMatches(args: GrepArgs, notes: readonly string[]): string {
  const where = args.path ?? ".";
  if (notes.length === 0) return `No matches for "${args.pattern}" in ${where}`;
  return [`No matches for "${args.pattern}" in the files searched in ${where}`, ...notes].join("; ");
}

async function searchFiles(
  args: GrepArgs,
  ctx: ToolContext,
  search: SearchOptions,
  mode: OutputMode,
  skipped: SkipTally,
): Promise<SearchResult> {
  if (await hasRipgrep(ctx)) {
    const tree = await treeSearch(args, ctx, search, mode);
    if (tree) {
      await tallyPaths(tree.passedOver, skipped);
      return tree;
    }
  }
  const files = await candidateFiles(args, ctx, skipped);
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
      !isDeniedAny(file, forbidden) && (glob === null || globMatches(glob, relativeSlash(base, file))),
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

/** The regular files to search, each at most the size cap; what is passed over goes to `skipped`. */
async function candidateFiles(args: GrepArgs, ctx: ToolContext, skipped: SkipTally): Promise<string[]> {
  const input = args.path ?? ".";
  const { base, info } = await searchBase(ctx, input);
  if (!info.isDirectory) {
    const reason = skipReasonOf(info);
    if (reason) skipped.add(reason);
    return reason ? [] : [base];
  }
  const passedOver: string[] = [];
  const files = await listFiles(ctx, base, { skipNodeModules: true, passedOver });
  const glob = args.glob === undefined ? null : compileUserGlob(args.glob);
  const forbidden = await forbiddenPaths(ctx.workspace);
  const keep = (file: string) =>
    !isDeniedAny(file, forbidden) && (glob === null || globMatches(glob, relativeSlash(base, file)));
  await tallyPaths(passedOver.filter(keep), skipped);
  return await screenFiles(files.filter(keep), skipped);
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
