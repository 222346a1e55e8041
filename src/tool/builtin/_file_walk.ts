/**
 * @module
 * Lists the searchable files under a directory for glob and grep: ripgrep's `--files` when the sandbox
 * can run `rg`, else a TypeScript walk with the same rules (gitignore, hidden files in, `.git` out,
 * symlinks not followed, forbidden paths hidden).
 */
import { dirname, join, relative, sep } from "node:path";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import { type ToolContext, ToolError } from "../tool.ts";
import { forbiddenPaths, isDeniedAny, isInside, resolveReadPath } from "../workspace_paths.ts";
import { type IgnoreRule, isIgnored, readGitignore } from "./_gitignore.ts";
import { rgSkippedPaths } from "./_search_skips.ts";

export interface ListFilesOptions {
  skipNodeModules: boolean;
  /** Collects the entries passed over for not being regular files (FIFOs, sockets, devices; maybe more). */
  passedOver?: string[];
}

export interface RgRun {
  output: string;
  /** rg's stderr, only when asked for apart (`separateStderr`); else it is mixed into `output`. */
  stderr: string;
  exitCode: number | null;
  complete: boolean;
  timedOut: boolean;
}

export interface RgOptions {
  maxOutputBytes: number;
  /** Default: the bash timeout. */
  timeoutMs?: number;
  separateStderr?: boolean;
}

const RG_LIST_MAX_BYTES = 64 * 1024 * 1024;
const rgProbes = new WeakMap<Sandbox, Promise<boolean>>();

/** Whether `rg` runs in this sandbox; probed once per sandbox. */
export function hasRipgrep(ctx: ToolContext): Promise<boolean> {
  let probe = rgProbes.get(ctx.sandbox);
  if (!probe) {
    probe = runRg(ctx, ["--version"], { maxOutputBytes: 4096 })
      .then((run) => run.exitCode === 0 && run.output.startsWith("ripgrep"))
      .catch((error) => {
        // An aborted probe says nothing about rg; let the next call probe again.
        if (ctx.signal.aborted) {
          rgProbes.delete(ctx.sandbox);
          throw error;
        }
        return false;
      });
    rgProbes.set(ctx.sandbox, probe);
  }
  return probe;
}

export async function runRg(ctx: ToolContext, args: readonly string[], options: RgOptions): Promise<RgRun> {
  const result = await ctx.sandbox.runArgv(["rg", ...args], {
    cwd: ctx.workspace.root,
    signal: ctx.signal,
    timeoutMs: options.timeoutMs ?? ctx.limits.bashTimeoutSeconds * 1000,
    maxOutputBytes: options.maxOutputBytes,
    ...(options.separateStderr ? { separateStderr: true } : {}),
  });
  ctx.signal.throwIfAborted();
  const complete = !result.timedOut && !result.aborted && result.droppedBytes === 0;
  return {
    output: result.output,
    stderr: result.stderr ?? "",
    exitCode: result.exitCode,
    complete,
    timedOut: result.timedOut,
  };
}

/** Absolute paths of the files under `base`, sorted by path. */
export async function listFiles(
  ctx: ToolContext,
  base: string,
  options: ListFilesOptions,
): Promise<string[]> {
  const forbidden = await forbiddenPaths(ctx.workspace);
  const files = (await hasRipgrep(ctx))
    ? await listWithRg(ctx, base, options).catch((error) => {
      if (ctx.signal.aborted) throw error;
      return null;
    })
    : null;
  const all = files ?? await listWithWalk(ctx, base, { ...options, forbidden });
  return all.filter((file) => !isDeniedAny(file, forbidden)).sort(comparePaths);
}

async function listWithRg(
  ctx: ToolContext,
  base: string,
  options: ListFilesOptions,
): Promise<string[] | null> {
  const args = ["--files", "--hidden", "--no-require-git", "--no-messages", "--glob", "!.git"];
  if (options.skipNodeModules) args.push("--glob", "!node_modules");
  const debug = options.passedOver !== undefined;
  if (debug) args.push("--debug");
  const run = await runRg(ctx, [...args, "--", base], {
    maxOutputBytes: RG_LIST_MAX_BYTES,
    separateStderr: debug,
  });
  if (!run.complete || (run.exitCode !== 0 && run.exitCode !== 1)) return null;
  options.passedOver?.push(...rgSkippedPaths(run.stderr));
  return run.output.split("\n").filter((line) => line !== "");
}

async function listWithWalk(
  ctx: ToolContext,
  base: string,
  options: ListFilesOptions & { forbidden: readonly string[] },
): Promise<string[]> {
  const out: string[] = [];
  const walker = { ctx, options, forbidden: options.forbidden, out };
  await walkDir(walker, base, await inheritedRules(ctx.workspace.root, base));
  return out;
}

interface Walker {
  ctx: ToolContext;
  options: ListFilesOptions;
  forbidden: readonly string[];
  out: string[];
}

/** Rules from the .gitignore files between the workspace root and `base` (exclusive). */
async function inheritedRules(root: string, base: string): Promise<IgnoreRule[]> {
  if (base === root || !isInside(base, root)) return [];
  const dirs: string[] = [];
  for (let dir = dirname(base); isInside(dir, root); dir = dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root) break;
  }
  const rules: IgnoreRule[] = [];
  for (const dir of dirs) rules.push(...await readGitignore(dir));
  return rules;
}

async function walkDir(walker: Walker, dir: string, parentRules: IgnoreRule[]): Promise<void> {
  walker.ctx.signal.throwIfAborted();
  let entries: Deno.DirEntry[];
  try {
    entries = await Array.fromAsync(Deno.readDir(dir));
  } catch {
    return;
  }
  const rules = [...parentRules, ...await readGitignore(dir)];
  entries.sort((a, b) => compareStrings(a.name, b.name));
  for (const entry of entries) {
    const abs = join(dir, entry.name);
    if (entry.isSymlink || isDeniedAny(abs, walker.forbidden)) continue;
    if (entry.isDirectory) {
      if (entry.name === ".git" || (walker.options.skipNodeModules && entry.name === "node_modules")) {
        continue;
      }
      if (!isIgnored(rules, abs, true)) await walkDir(walker, abs, rules);
    } else if (!isIgnored(rules, abs, false)) {
      (entry.isFile ? walker.out : walker.options.passedOver)?.push(abs);
    }
  }
}

/** Component-wise order, the one `rg --sort path` uses. */
export function comparePaths(a: string, b: string): number {
  const left = a.split(sep);
  const right = b.split(sep);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const order = compareStrings(left[i]!, right[i]!);
    if (order !== 0) return order;
  }
  return left.length - right.length;
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "/"-separated path of `abs` relative to `base`. */
export function relativeSlash(base: string, abs: string): string {
  const rel = relative(base, abs);
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** Where a search starts: `input` (default the workspace root) resolved for reading, and what is there. */
export async function searchBase(
  ctx: ToolContext,
  input: string,
): Promise<{ base: string; info: Deno.FileInfo }> {
  const base = await resolveReadPath(ctx.workspace, input);
  const info = await Deno.stat(base).catch(() => null);
  if (info === null) {
    throw new ToolError("tool.not_found", `Cannot access "${input}": no such file or directory`);
  }
  return { base, info };
}
