/**
 * @module
 * The workspace's files and directories for `@path` completion, listed with the search tools' rules
 * (gitignore, `.git` and node_modules out, forbid_read hidden), capped, and cached for a few seconds
 * so every keystroke of a mention does not walk the tree again.
 */
import { listFiles, relativeSlash } from "../tool/builtin/_file_walk.ts";
import type { ToolContext } from "../tool/tool.ts";

export const MAX_LISTED_FILES = 5000;
const CACHE_MS = 5000;
const LIST_TIMEOUT_MS = 10_000;

export interface WorkspaceFilesOptions {
  context: Omit<ToolContext, "signal">;
  now?: () => number;
  maxFiles?: number;
}

export class WorkspaceFiles {
  #options: WorkspaceFilesOptions;
  #cached: { at: number; list: Promise<string[]> } | null = null;

  constructor(options: WorkspaceFilesOptions) {
    this.#options = options;
  }

  /** Workspace-relative "/" paths: directories (with a trailing "/") first, then files, each sorted. */
  list(): Promise<string[]> {
    const now = (this.#options.now ?? Date.now)();
    if (this.#cached && now - this.#cached.at < CACHE_MS) return this.#cached.list;
    const list = this.#walk();
    this.#cached = { at: now, list };
    list.catch(() => this.#cached = null);
    return list;
  }

  async #walk(): Promise<string[]> {
    const { context, maxFiles = MAX_LISTED_FILES } = this.#options;
    const root = context.workspace.root;
    const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
    const files = (await listFiles({ ...context, signal }, root, { skipNodeModules: true }))
      .slice(0, maxFiles)
      .map((abs) => relativeSlash(root, abs));
    return [...directoriesOf(files), ...files];
  }
}

/** Every directory that holds a listed file, as "dir/" and "dir/sub/". */
export function directoriesOf(files: readonly string[]): string[] {
  const dirs = new Set<string>();
  for (const file of files) {
    const parts = file.split("/").slice(0, -1);
    for (let i = 1; i <= parts.length; i++) dirs.add(`${parts.slice(0, i).join("/")}/`);
  }
  return [...dirs].sort();
}
