import { z } from "zod";
import { defineTool, ToolError } from "../tool.ts";
import { displayPath } from "../workspace_paths.ts";
import { listFiles, relativeSlash, searchBase } from "./_file_walk.ts";
import { type CompiledGlob, compileGlob, globMatches } from "./_glob_match.ts";
import { groupByDirectory } from "./_path_groups.ts";

export const GLOB_MAX_RESULTS = 200;
const STAT_BATCH = 64;

const DESCRIPTION =
  `Find files by glob ("**/*.ts", "src/*.json"; a pattern without "/" matches names at any depth). Skips files ignored by .gitignore, .git and node_modules. Newest first, at most 200.`;

const parameters = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/*.json"'),
  path: z.string().optional().describe("Directory to search (default: the workspace root)"),
});

export const globTool = defineTool({
  name: "glob",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  truncationHint: "use a more specific pattern or path",
  async execute(args, ctx) {
    const glob = parsePattern(args.pattern);
    const input = args.path ?? ".";
    const { base, info } = await searchBase(ctx, input);
    if (!info.isDirectory) {
      throw new ToolError("tool.not_a_directory", `Cannot search "${input}": not a directory`);
    }
    const skipNodeModules = !args.pattern.includes("node_modules");
    const files = await listFiles(ctx, base, { skipNodeModules });
    const matched = files.filter((file) => globMatches(glob, relativeSlash(base, file)));
    const data = {
      kind: "search" as const,
      pattern: args.pattern,
      matches: matched.length,
      files: matched.length,
    };
    if (matched.length === 0) {
      return { output: `No files match "${args.pattern}" in ${displayPath(ctx.workspace, base)}`, data };
    }
    const sorted = await sortByMtime(matched, ctx.signal);
    const shown = sorted.slice(0, GLOB_MAX_RESULTS).map((file) => displayPath(ctx.workspace, file));
    const rest = sorted.length - shown.length;
    const more = rest > 0 ? `\n\n(${rest} more not shown)` : "";
    return { output: groupByDirectory(shown) + more, truncated: rest > 0 || undefined, data };
  },
});

function parsePattern(pattern: string): CompiledGlob {
  if (pattern.startsWith("!")) {
    throw new ToolError(
      "tool.invalid_pattern",
      `Cannot use glob "${pattern}": negated patterns are not supported`,
    );
  }
  if (pattern.split("/").includes("..")) {
    throw new ToolError("tool.path_traversal", `Cannot use glob "${pattern}": ".." segments are not allowed`);
  }
  try {
    return compileGlob(pattern);
  } catch {
    throw new ToolError("tool.invalid_pattern", `Cannot use glob "${pattern}": it is not a valid pattern`);
  }
}

async function sortByMtime(files: string[], signal: AbortSignal): Promise<string[]> {
  const times = new Map<string, number>();
  for (let i = 0; i < files.length; i += STAT_BATCH) {
    signal.throwIfAborted();
    const batch = files.slice(i, i + STAT_BATCH);
    const stats = await Promise.all(batch.map((file) => Deno.lstat(file).catch(() => null)));
    batch.forEach((file, j) => times.set(file, stats[j]?.mtime?.getTime() ?? 0));
  }
  return [...files].sort((a, b) => times.get(b)! - times.get(a)! || (a < b ? -1 : a > b ? 1 : 0));
}
