/**
 * @module
 * An in-memory symbol index per workspace for code_index: files are parsed on first use and again
 * only when their mtime or size changes. Refreshes of one workspace run one at a time.
 */
import { extractSymbols, supportsSymbols, type SymbolKind } from "../parse/symbols.ts";
import { languageForPath, type LanguageId } from "../parse/tree_sitter.ts";
import { type ToolContext, ToolError } from "../tool.ts";
import { readTextFile } from "./_text_file.ts";

export const INDEX_MAX_FILE_BYTES = 1024 * 1024;
const STAT_BATCH = 64;
const MAX_WORKSPACES = 4;
const PROGRESS_EVERY = 1024;

export interface IndexedSymbol {
  name: string;
  kind: SymbolKind;
  parent?: string;
  line: number;
}

export interface IndexedFile {
  abs: string;
  language: LanguageId;
  symbols: IndexedSymbol[];
}

export interface RefreshReport {
  files: IndexedFile[];
  /** Files parsed during this refresh (new or changed). */
  parsed: number;
  tooLarge: number;
  unreadable: number;
}

interface Entry {
  mtime: number;
  size: number;
  file: IndexedFile | null;
}

const indexes = new Map<string, SymbolIndex>();

/** The index of the workspace rooted at `root`; the least recently used workspace is dropped. */
export function symbolIndexFor(root: string): SymbolIndex {
  let index = indexes.get(root);
  if (index !== undefined) indexes.delete(root);
  index ??= new SymbolIndex();
  indexes.set(root, index);
  while (indexes.size > MAX_WORKSPACES) indexes.delete(indexes.keys().next().value!);
  return index;
}

/** Whether code_index can read symbols from this path. */
export function isIndexable(path: string): boolean {
  const language = languageForPath(path);
  return language !== null && supportsSymbols(language);
}

export class SymbolIndex {
  readonly #entries = new Map<string, Entry>();
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * Brings the given files up to date and returns their symbols, in the order given. `complete`
   * says the list is the whole workspace, so entries for files not on it are dropped.
   */
  refresh(
    ctx: ToolContext,
    paths: readonly string[],
    options: { complete?: boolean } = {},
  ): Promise<RefreshReport> {
    const wanted = paths.filter(isIndexable);
    const run = this.#queue.then(() => {
      if (options.complete) this.#prune(new Set(wanted));
      return this.#refresh(ctx, wanted);
    });
    this.#queue = run.catch(() => {});
    return run;
  }

  #prune(keep: Set<string>): void {
    for (const abs of [...this.#entries.keys()]) if (!keep.has(abs)) this.#entries.delete(abs);
  }

  async #refresh(ctx: ToolContext, paths: string[]): Promise<RefreshReport> {
    const report: RefreshReport = { files: [], parsed: 0, tooLarge: 0, unreadable: 0 };
    for (let i = 0; i < paths.length; i += STAT_BATCH) {
      ctx.signal.throwIfAborted();
      const batch = paths.slice(i, i + STAT_BATCH);
      const stats = await Promise.all(batch.map((abs) => Deno.stat(abs).catch(() => null)));
      for (const [j, abs] of batch.entries()) {
        const entry = await this.#entryFor(abs, stats[j] ?? null, report);
        if (entry?.file) report.files.push(entry.file);
        else if (entry !== null) report.unreadable++;
      }
      if (report.parsed > 0 && (i + batch.length) % PROGRESS_EVERY === 0) {
        ctx.onProgress?.({ message: `Indexed ${i + batch.length} of ${paths.length} files` });
      }
    }
    return report;
  }

  async #entryFor(abs: string, info: Deno.FileInfo | null, report: RefreshReport): Promise<Entry | null> {
    if (info === null || !info.isFile) {
      this.#entries.delete(abs);
      return null;
    }
    if (info.size > INDEX_MAX_FILE_BYTES) {
      this.#entries.delete(abs);
      report.tooLarge++;
      return null;
    }
    const mtime = info.mtime?.getTime() ?? 0;
    const cached = this.#entries.get(abs);
    if (cached !== undefined && cached.mtime === mtime && cached.size === info.size) return cached;
    const entry: Entry = { mtime, size: info.size, file: await parseFile(abs) };
    this.#entries.set(abs, entry);
    report.parsed++;
    return entry;
  }
}

async function parseFile(abs: string): Promise<IndexedFile | null> {
  const language = languageForPath(abs)!;
  try {
    const file = await readTextFile(null, abs, abs);
    if (file === null) return null;
    const symbols = (await extractSymbols(file.text, language)).map((symbol) => ({
      name: symbol.name,
      kind: symbol.kind,
      ...(symbol.parent === undefined ? {} : { parent: symbol.parent }),
      line: symbol.line,
    }));
    return { abs, language, symbols };
  } catch (error) {
    // A binary or vanished file is skipped; a grammar that fails to load is everyone's problem.
    const skippable = error instanceof ToolError && error.code !== "tool.parser_unavailable";
    if (skippable || error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}
