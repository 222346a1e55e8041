/**
 * @module
 * The two grep engines: ripgrep (`--json`) over a tree or an explicit file list, and a JS RegExp line
 * scanner. Both skip binary files, strip CR, and stop once `enough` says enough was found or the
 * deadline passes; the caller has already screened explicit file lists (_search_skips.ts).
 */
import { readRegularFile } from "../../lib/regular_file.ts";
import type { ToolContext } from "../tool.ts";
import { ToolError } from "../tool.ts";
import { comparePaths, type RgRun, runRg } from "./_file_walk.ts";
import { GREP_MAX_FILE_BYTES, rgSkippedPaths } from "./_search_skips.ts";

export interface Hit {
  line: number;
  text: string;
  match: boolean;
}

export interface FileHits {
  file: string;
  hits: Hit[];
  matches: number;
}

export interface SearchOptions {
  pattern: string;
  caseInsensitive: boolean;
  context: number;
  /** Called after each file with matches; returning true stops the search. */
  enough: (found: readonly FileHits[]) => boolean;
  /** Epoch milliseconds at which the search stops and reports what it found so far. */
  deadline: number;
}

/** Matches found; `timedOut` when the deadline cut the search short. */
export interface SearchResult {
  found: FileHits[];
  timedOut: boolean;
}

/** A tree search also names the entries ripgrep passed over (to be tallied by the caller). */
export interface TreeSearchResult extends SearchResult {
  passedOver: string[];
}

const RG_CHUNK_FILES = 256;
const RG_CHUNK_MAX_BYTES = 16 * 1024 * 1024;
const RG_TREE_MAX_BYTES = 64 * 1024 * 1024;

/** Null when ripgrep rejected the pattern but JavaScript accepts it (look-around, backreferences). */
export async function searchWithRg(
  ctx: ToolContext,
  files: readonly string[],
  options: SearchOptions,
): Promise<SearchResult | null> {
  if (files.length === 0) {
    if (compileJsPattern(options.pattern, options.caseInsensitive) === null) {
      throw invalidPattern(options.pattern, "JavaScript cannot parse it");
    }
    return { found: [], timedOut: false };
  }
  const found: FileHits[] = [];
  const flags = rgFlags(options);
  for (let i = 0; i < files.length; i += RG_CHUNK_FILES) {
    const timeoutMs = options.deadline - Date.now();
    if (timeoutMs <= 0) return { found, timedOut: true };
    const chunk = files.slice(i, i + RG_CHUNK_FILES);
    const run = await runRg(ctx, [...flags, "-e", options.pattern, "--", ...chunk], {
      maxOutputBytes: RG_CHUNK_MAX_BYTES,
      timeoutMs,
    });
    const parsed = parseRgJson(run.output, run.timedOut);
    if (rejectedPattern(run, parsed, options)) return null;
    const order = new Map(chunk.map((file, index) => [file, index]));
    parsed.files.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0));
    for (const entry of parsed.files) {
      found.push(entry);
      if (options.enough(found)) return { found, timedOut: false };
    }
    if (run.timedOut) return { found, timedOut: true };
  }
  return { found, timedOut: false };
}

function rgFlags(options: SearchOptions): string[] {
  const flags = ["--json", "--no-messages", "--no-config", "--crlf"];
  if (options.caseInsensitive) flags.push("-i");
  if (options.context > 0) flags.push("-C", String(options.context));
  return flags;
}

/** True when rg refused a pattern JavaScript accepts; throws when neither can use it. */
function rejectedPattern(run: RgRun, parsed: RgParse, options: SearchOptions): boolean {
  const said = `${run.output}\n${run.stderr}`.split("\n").filter((line) => !line.includes("DEBUG|"));
  if (run.exitCode !== 2 || parsed.events !== 0 || !/regex|error/i.test(said.join("\n"))) return false;
  if (compileJsPattern(options.pattern, options.caseInsensitive) !== null) return true;
  throw invalidPattern(options.pattern, said.filter((line) => line.trim() !== "").slice(0, 6).join("\n"));
}

/**
 * One rg process walks the whole tree (honouring .gitignore itself) instead of one per chunk of a file
 * list: on large trees that is most of the cost. Null when the output was cut or rg failed, so the
 * caller falls back to the file-list search; `keep` applies the glob filter and forbidden paths.
 * `--debug` (kept apart from the JSON on stderr) names the FIFOs and oversized files the walk skipped.
 */
export async function searchTreeWithRg(
  ctx: ToolContext,
  base: string,
  options: SearchOptions & { keep: (file: string) => boolean; perFileCap?: number },
): Promise<TreeSearchResult | null> {
  const walk = [
    "--hidden",
    "--no-require-git",
    "--glob",
    "!.git",
    "--glob",
    "!node_modules",
    "--max-filesize",
    String(GREP_MAX_FILE_BYTES),
    "--debug",
  ];
  if (options.perFileCap) walk.push("--max-count", String(options.perFileCap));
  const run = await runRg(ctx, [...rgFlags(options), ...walk, "-e", options.pattern, "--", base], {
    maxOutputBytes: RG_TREE_MAX_BYTES,
    timeoutMs: Math.max(0, options.deadline - Date.now()),
    separateStderr: true,
  });
  const parsed = parseRgJson(run.output, run.timedOut);
  if (rejectedPattern(run, parsed, options)) return null;
  if (!run.timedOut && (!run.complete || (run.exitCode !== 0 && run.exitCode !== 1))) return null;
  // rg searches in parallel (which also lets a timed-out run keep what it printed: `--sort` is serial and
  // block-buffered); sorting here keeps the output deterministic.
  parsed.files.sort((a, b) => comparePaths(a.file, b.file));
  const found: FileHits[] = [];
  for (const entry of parsed.files) {
    if (!options.keep(entry.file)) continue;
    found.push(entry);
    if (options.enough(found)) break;
  }
  const passedOver = rgSkippedPaths(run.stderr).filter(options.keep);
  return { found, timedOut: run.timedOut, passedOver };
}

interface RgParse {
  files: FileHits[];
  events: number;
}

/** `cut`: the output may end mid-file (a timeout); the last file's matches so far still count. */
function parseRgJson(output: string, cut = false): RgParse {
  const result: RgParse = { files: [], events: 0 };
  let current: FileHits | null = null;
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    let event: RgEvent;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    result.events++;
    const path = event.data?.path?.text;
    if (event.type === "begin" && path !== undefined) current = { file: path, hits: [], matches: 0 };
    if ((event.type === "match" || event.type === "context") && current && path === current.file) {
      const text = (event.data.lines?.text ?? "").replace(/\r?\n$/, "");
      const match = event.type === "match";
      current.hits.push({ line: event.data.line_number ?? 0, text, match });
      if (match) current.matches++;
    }
    if (event.type === "end" && current) {
      if (event.data.binary_offset == null && current.matches > 0) result.files.push(current);
      current = null;
    }
  }
  if (cut && current && current.matches > 0) result.files.push(current);
  return result;
}

interface RgEvent {
  type: string;
  data: {
    path?: { text?: string };
    lines?: { text?: string };
    line_number?: number;
    binary_offset?: number | null;
  };
}

export async function searchWithJs(
  ctx: ToolContext,
  files: readonly string[],
  options: SearchOptions,
): Promise<SearchResult> {
  const regex = compileJsPattern(options.pattern, options.caseInsensitive);
  if (regex === null) throw invalidPattern(options.pattern, "JavaScript cannot parse it");
  const found: FileHits[] = [];
  for (const file of files) {
    ctx.signal.throwIfAborted();
    if (Date.now() >= options.deadline) return { found, timedOut: true };
    const lines = await readSearchableLines(file);
    if (lines === null) continue;
    const entry = scanLines(file, lines, regex, options.context);
    if (entry.matches === 0) continue;
    found.push(entry);
    if (options.enough(found)) break;
  }
  return { found, timedOut: false };
}

/**
 * Lines of a text file, or null for binary, oversized, unreadable or non-regular files (the list was
 * screened, but a FIFO swapped in since must not block the read).
 */
async function readSearchableLines(file: string): Promise<string[] | null> {
  try {
    const read = await readRegularFile(file, GREP_MAX_FILE_BYTES);
    if (read.kind !== "bytes") return null;
    const bytes = read.bytes;
    const encoding = bytes[0] === 0xff && bytes[1] === 0xfe
      ? "utf-16le"
      : bytes[0] === 0xfe && bytes[1] === 0xff
      ? "utf-16be"
      : "utf-8";
    if (encoding === "utf-8" && bytes.includes(0)) return null;
    const text = new TextDecoder(encoding).decode(bytes);
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  } catch {
    return null;
  }
}

function scanLines(file: string, lines: readonly string[], regex: RegExp, context: number): FileHits {
  const matched: number[] = [];
  lines.forEach((line, index) => {
    if (regex.test(line)) matched.push(index);
  });
  const shown = new Set<number>();
  for (const index of matched) {
    for (let i = Math.max(0, index - context); i <= Math.min(lines.length - 1, index + context); i++) {
      shown.add(i);
    }
  }
  const matchSet = new Set(matched);
  const hits = [...shown].sort((a, b) => a - b).map((i) => ({
    line: i + 1,
    text: lines[i]!,
    match: matchSet.has(i),
  }));
  return { file, hits, matches: matched.length };
}

/** JS has no `(?i)` prefix; accept it as the case-insensitive flag, as ripgrep does. */
export function compileJsPattern(pattern: string, caseInsensitive: boolean): RegExp | null {
  let source = pattern;
  let flags = caseInsensitive ? "i" : "";
  if (source.startsWith("(?i)")) {
    source = source.slice(4);
    flags = "i";
  }
  for (const extra of ["u", ""]) {
    try {
      return new RegExp(source, flags + extra);
    } catch {
      // Try the next flag set; patterns like "\-" are only valid without "u".
    }
  }
  return null;
}

function invalidPattern(pattern: string, detail: string): ToolError {
  return new ToolError(
    "tool.invalid_pattern",
    `Cannot search for "${pattern}": not a valid regular expression\n${detail}`,
  );
}
