import { join } from "node:path";
import { z } from "zod";
import { defineTool, type ToolContext, ToolError } from "../tool.ts";
import { displayPath, forbiddenPaths, isDeniedAny, resolveReadPath } from "../workspace_paths.ts";

export const LS_MAX_ENTRIES = 1000;
const MAX_DEPTH = 5;
const SKIPPED_DIRS = new Set([".git", "node_modules"]);
/** Entries counted past the cap before the count is given as a lower bound. */
const COUNT_LIMIT = 100_000;
/** Files this large get their size: too big to read whole in one call, worth paging or grepping. */
export const LS_SIZE_FROM_BYTES = 16 * 1024;

const DESCRIPTION =
  `List a directory: "name/" for directories, "name" for files ("<TAB>bytes" from 16 KB), "name@ -> target" for symlinks. Skips .git and node_modules; at most 1000 entries.`;

const parameters = z.object({
  path: z.string().optional().describe('Directory to list (default ".", the workspace root)'),
  recursive: z.boolean().optional().describe("Also list subdirectories (default false)"),
  depth: z.number().int().min(1).max(MAX_DEPTH).optional().describe(
    `Levels to list: default 1, or 3 when recursive (max ${MAX_DEPTH})`,
  ),
});

interface Listing {
  ctx: ToolContext;
  forbidden: readonly string[];
  /** Entries by their directory relative to the listed one ("" for itself), in walk order. */
  sections: Map<string, string[]>;
  shown: number;
  extra: number;
  skipped: string[];
}

export const lsTool = defineTool({
  name: "ls",
  description: DESCRIPTION,
  parameters,
  readOnly: true,
  truncationHint: "list a subdirectory or lower the depth",
  async execute(args, ctx) {
    const input = args.path ?? ".";
    const abs = await resolveReadPath(ctx.workspace, input);
    const shown = displayPath(ctx.workspace, abs);
    await assertDirectory(abs, input, shown);
    const depth = Math.min(args.depth ?? (args.recursive ? 3 : 1), MAX_DEPTH);
    const listing: Listing = {
      ctx,
      forbidden: await forbiddenPaths(ctx.workspace),
      sections: new Map(),
      shown: 0,
      extra: 0,
      skipped: [],
    };
    await listDir(listing, abs, { prefix: "", depth });
    return {
      output: render(listing, shown),
      truncated: listing.extra > 0 || undefined,
      data: { kind: "list", path: shown, entries: listing.shown + listing.extra },
    };
  },
});

async function assertDirectory(abs: string, input: string, shown: string): Promise<void> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(abs);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      throw new ToolError("tool.not_found", `Cannot access "${input}": no such file or directory`);
    }
    throw error;
  }
  if (!info.isDirectory) {
    throw new ToolError(
      "tool.not_a_directory",
      `Cannot list "${shown}": not a directory; use read_file to read it`,
    );
  }
}

async function listDir(listing: Listing, dir: string, at: { prefix: string; depth: number }): Promise<void> {
  listing.ctx.signal.throwIfAborted();
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const abs = join(dir, entry.name);
    if (isDeniedAny(abs, listing.forbidden)) continue;
    if (entry.isDirectory && SKIPPED_DIRS.has(entry.name)) {
      listing.skipped.push(`${at.prefix}${entry.name}/`);
      continue;
    }
    add(listing, at.prefix, await describe(abs, entry));
    if (entry.isDirectory && at.depth > 1 && listing.extra < COUNT_LIMIT) {
      await listDir(listing, abs, { prefix: `${at.prefix}${entry.name}/`, depth: at.depth - 1 });
    }
  }
}

function add(listing: Listing, section: string, line: string): void {
  if (listing.shown >= LS_MAX_ENTRIES) {
    listing.extra++;
    return;
  }
  listing.shown++;
  const lines = listing.sections.get(section);
  if (lines) lines.push(line);
  else listing.sections.set(section, [line]);
}

async function describe(abs: string, entry: Deno.DirEntry): Promise<string> {
  const name = entry.name;
  if (entry.isDirectory) return `${name}/`;
  if (entry.isSymlink) {
    const target = await Deno.readLink(abs).catch(() => "?");
    return `${name}@ -> ${target}`;
  }
  const size = await Deno.lstat(abs).then((info) => info.size, () => 0);
  return size >= LS_SIZE_FROM_BYTES ? `${name}\t${size}` : name;
}

/** Each directory's path once, as a "dir/:" line over its entries: cheaper than repeating it per entry. */
function render(listing: Listing, shown: string): string {
  const blocks = [...listing.sections].map(([dir, lines]) => dir === "" ? lines : [`${dir}:`, ...lines]);
  const out = blocks.length === 0
    ? [`Directory "${shown}" is empty`]
    : [blocks.map((block) => block.join("\n")).join("\n\n")];
  if (listing.extra > 0) {
    const count = listing.extra >= COUNT_LIMIT ? `more than ${COUNT_LIMIT}` : String(listing.extra);
    out.push(`... (${count} more entries not shown)`);
  }
  if (listing.skipped.length > 0) out.push(`(not listed: ${listing.skipped.join(", ")})`);
  return out.join("\n");
}
