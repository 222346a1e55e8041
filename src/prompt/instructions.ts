/**
 * @module
 * Instruction files (REASONIX.md, AGENTS.md, CLAUDE.md and their .local variants), all of them: the
 * user's home first, then each directory from the workspace root down to the target directory, each
 * directory's plain files before its `.local.md` files. Later files take precedence; identical content
 * is kept once; `@path` lines are expanded (instruction_imports.ts). The order is fixed, so the system
 * prompt is byte-stable.
 */
import { join, relative } from "node:path";
import { type ConfinedReadOptions, describeRefusal, readConfined } from "../lib/confined_read.ts";
import {
  describeImportRefusal,
  expandImports,
  type ImportRecord,
  isPrivate,
  MAX_IMPORTS,
} from "./instruction_imports.ts";
import type { InstructionFile, InstructionScope } from "./system.ts";

export const INSTRUCTION_NAMES = [
  "REASONIX.md",
  "AGENTS.md",
  "CLAUDE.md",
  "REASONIX.local.md",
  "AGENTS.local.md",
  "CLAUDE.local.md",
];
const MAX_BYTES = 64 * 1024;
/** All instruction text of a session together, imports included. */
export const MAX_TOTAL_BYTES = 128 * 1024;

export interface InstructionOptions {
  home: string;
  workspace: string;
  /** The directory Reasonix was started in, when it is inside the workspace; default the root. */
  target?: string;
  /** Where a workspace file may not resolve to (the whole Reasonix home, forbid_read, credentials). */
  hidden: readonly string[];
  /** Where a file in the home may not resolve to (its .env, trust.json, config, sessions). */
  secrets: readonly string[];
}

/** One instruction file found on disk, for `/memory instructions`. */
export interface InstructionEntry {
  path: string;
  label: string;
  scope: InstructionScope;
  status: "loaded" | "duplicate" | "empty" | "refused" | "skipped";
  bytes: number;
  imports: ImportRecord[];
}

export interface LoadedInstructions {
  files: InstructionFile[];
  /** One sentence per refused file or import: which file, and why. */
  warnings: string[];
  /** Every file found, in load order, whether or not it reached the prompt. */
  entries: InstructionEntry[];
}

interface Place {
  path: string;
  label: string;
  scope: InstructionScope;
  guard: ConfinedReadOptions;
  /** For a workspace file: the root below which it may not resolve into `.git` or an `.env` file. */
  root?: string;
}

/** Where instruction files may be, in load order. */
function places(
  options: Omit<InstructionOptions, "hidden" | "secrets"> & Partial<InstructionOptions>,
): Place[] {
  const out: Place[] = INSTRUCTION_NAMES.map((name) => ({
    path: join(options.home, name),
    label: `user/${name}`,
    scope: "global" as const,
    guard: { hidden: options.secrets ?? [] },
  }));
  for (const level of levels(options.workspace, options.target)) {
    for (const name of INSTRUCTION_NAMES) {
      out.push({
        path: join(options.workspace, ...level, name),
        label: ["workspace", ...level, name].join("/"),
        scope: name.endsWith(".local.md") ? "local" : level.length === 0 ? "project" : "directory",
        guard: { roots: [options.workspace], hidden: options.hidden ?? [] },
        root: options.workspace,
      });
    }
  }
  return out;
}

/** The directories from the root down to the target, as segment lists ([] is the root). */
function levels(workspace: string, target: string | undefined): string[][] {
  const rel = target ? relative(workspace, target) : "";
  const segments = rel.split(/[\\/]/).filter((s) => s !== "");
  if (segments.includes("..") || /^([A-Za-z]:|[\\/])/.test(rel)) return [[]];
  return [[], ...segments.map((_, i) => segments.slice(0, i + 1))];
}

/**
 * A workspace file must resolve inside the workspace: `AGENTS.md -> ~/.reasonix/.env` in a cloned
 * repository would otherwise put the user's key into the prompt and the session file.
 */
export async function loadInstructionFiles(options: InstructionOptions): Promise<LoadedInstructions> {
  const loaded: LoadedInstructions = { files: [], warnings: [], entries: [] };
  const state = {
    seen: new Set<string>(),
    texts: new Set<string>(),
    budget: { left: MAX_TOTAL_BYTES, imports: MAX_IMPORTS },
  };
  for (const place of places(options)) await loadOne(place, loaded, state);
  return loaded;
}

async function loadOne(
  place: Place,
  loaded: LoadedInstructions,
  state: { seen: Set<string>; texts: Set<string>; budget: { left: number; imports: number } },
): Promise<void> {
  const maxBytes = Math.min(MAX_BYTES, state.budget.left);
  const result = await readConfined(place.path, { ...place.guard, maxBytes })
    .catch((error: Error) => ({ kind: "error" as const, name: error.name }));
  if (result.kind === "missing") return;
  const entry: InstructionEntry = {
    path: place.path,
    label: place.label,
    scope: place.scope,
    status: "refused",
    bytes: 0,
    imports: [],
  };
  loaded.entries.push(entry);
  if (result.kind === "refused") return void loaded.warnings.push(describeRefusal(place.path, result));
  if (result.kind === "error") {
    return void loaded.warnings.push(
      `Cannot load "${place.path}": it cannot be read (${result.name}); the file is not loaded`,
    );
  }
  if (result.kind === "skipped") {
    entry.status = "skipped";
    const why = result.reason === "not a file"
      ? "it is not a file"
      : maxBytes < MAX_BYTES
      ? `the instructions reached their total limit of ${MAX_TOTAL_BYTES / 1024} KB`
      : `it is larger than ${MAX_BYTES / 1024} KB`;
    return void loaded.warnings.push(`Cannot load "${place.path}": ${why}; the file is not loaded`);
  }
  if (await intoPrivate(place, result.real)) {
    return void loaded.warnings.push(
      `Cannot load "${place.path}" (it points to "${result.real}"): git internals and .env files are not ` +
        "loaded as instructions",
    );
  }
  entry.bytes = result.bytes.length;
  const raw = result.text.trim();
  entry.status = raw === ""
    ? "empty"
    : state.seen.has(result.real) || state.texts.has(raw)
    ? "duplicate"
    : "loaded";
  if (entry.status !== "loaded") return;
  state.seen.add(result.real);
  state.texts.add(raw);
  state.budget.left -= result.bytes.length;
  const text = await expandImports(result.text, result.real, {
    hidden: place.guard.hidden,
    seen: state.seen,
    budget: state.budget,
    maxFileBytes: MAX_BYTES,
    records: entry.imports,
  });
  for (const record of entry.imports) {
    if (record.status === "refused") loaded.warnings.push(describeImportRefusal(record));
  }
  if (text.trim() === "") entry.status = "empty";
  else loaded.files.push({ label: place.label, scope: place.scope, text });
}

async function intoPrivate(place: Place, real: string): Promise<boolean> {
  if (!place.root) return false;
  const root = await Deno.realPath(place.root).catch(() => place.root!);
  return isPrivate(relative(root, real));
}

/** An instruction file on disk, whether or not the prompt takes it (empty or over the size limit). */
export interface InstructionSource {
  path: string;
  scope: InstructionScope;
  bytes: number;
  loaded: boolean;
}

/** The instruction files that exist for this home and workspace, in load order (`/memory`). */
export async function instructionSources(
  options: { home: string; workspace: string; target?: string },
): Promise<InstructionSource[]> {
  const sources: InstructionSource[] = [];
  for (const { path, scope } of places(options)) {
    const info = await Deno.stat(path).catch(() => null);
    if (!info?.isFile) continue;
    sources.push({ path, scope, bytes: info.size, loaded: info.size > 0 && info.size <= MAX_BYTES });
  }
  return sources;
}

/** Where `/remember` writes: the workspace AGENTS.md, or REASONIX.md when that is the only one there. */
export async function memoryFile(workspace: string): Promise<string> {
  const exists = (name: string) => Deno.stat(join(workspace, name)).then((i) => i.isFile, () => false);
  if (!await exists("AGENTS.md") && await exists("REASONIX.md")) return join(workspace, "REASONIX.md");
  return join(workspace, "AGENTS.md");
}
