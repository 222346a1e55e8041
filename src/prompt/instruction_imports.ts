/**
 * @module
 * `@relative/path.md` lines in instruction files, expanded in place. An import is confined to the
 * importing file's own directory tree: absolute paths, `..`, symlinks that resolve elsewhere, hidden
 * places, unreadable files, cycles and chains deeper than five levels are refused and reported; the line
 * then stays as literal text. A file already included (by real path) is not included twice.
 */
import { dirname, isAbsolute, join, relative } from "node:path";
import { type ConfinedRead, readConfined } from "../lib/confined_read.ts";

export const MAX_IMPORT_DEPTH = 5;
/** Import lines one load follows; a file of a thousand `@x.md` lines is not a thousand reads. */
export const MAX_IMPORTS = 64;

/** `@` then a path-like word alone on its line; anything else starting with `@` stays prose. */
const IMPORT_LINE = /^[ \t]*@([\w.\-/\\~:+@]+)[ \t\r]*$/;
const FENCE = /^[ \t]*(```|~~~)/;
/** Never imported even inside the tree: git's internals (a token in a remote URL) and dotenv files. */
const PRIVATE_SEGMENT = /^(\.git|\.env(\..*)?)$/;

export type ImportRefusal =
  | "absolute"
  | "parent"
  | "symlink escape"
  | "hidden"
  | "unreadable"
  | "cycle"
  | "too deep"
  | "over the size limit"
  | "too many";

export interface ImportRecord {
  /** The path as written after `@`. */
  spec: string;
  /** The file whose line named it (absolute). */
  from: string;
  /** 1 for an import in a loaded file, 2 for an import inside that one, ... */
  depth: number;
  status: "loaded" | "duplicate" | "refused";
  reason?: ImportRefusal;
  /** Why, for a refusal: what the path is or points to. */
  detail?: string;
}

export interface ImportContext {
  hidden: readonly string[];
  /** Real paths already included anywhere in this load (top-level files and imports). */
  seen: Set<string>;
  /** Bytes and import lines the whole load may still take. */
  budget: { left: number; imports: number };
  maxFileBytes: number;
  records: ImportRecord[];
}

/** `text` of the file at real path `real`, with its imports expanded. */
export function expandImports(text: string, real: string, context: ImportContext): Promise<string> {
  return expand(text, { file: real, chain: [real], depth: 0 }, context);
}

interface Frame {
  file: string;
  chain: readonly string[];
  depth: number;
}

async function expand(text: string, frame: Frame, context: ImportContext): Promise<string> {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) fenced = !fenced;
    const spec = fenced ? undefined : IMPORT_LINE.exec(line)?.[1];
    if (spec === undefined || !looksLikePath(spec)) {
      out.push(line);
      continue;
    }
    const result = await importOne(spec, frame, context);
    if (result === null) out.push(line);
    else if (result !== "") out.push(result);
  }
  return out.join("\n");
}

/** The block that replaces the line, "" for a duplicate, or null when refused (the line stays). */
async function importOne(spec: string, frame: Frame, context: ImportContext): Promise<string | null> {
  const depth = frame.depth + 1;
  const record = (status: ImportRecord["status"], reason?: ImportRefusal, detail?: string) => {
    context.records.push({
      spec,
      from: frame.file,
      depth,
      status,
      ...(reason ? { reason } : {}),
      ...(detail ? { detail } : {}),
    });
    return status === "refused" ? null : "";
  };
  if (isAbsolute(spec) || /^(~|[A-Za-z]:|\\)/.test(spec)) return record("refused", "absolute");
  if (spec.split(/[\\/]/).includes("..")) return record("refused", "parent");
  const PRIVATE = "git internals and .env files are never imported";
  if (isPrivate(spec)) return record("refused", "hidden", PRIVATE);
  if (depth > MAX_IMPORT_DEPTH) return record("refused", "too deep");
  if (--context.budget.imports < 0) {
    return context.budget.imports === -1 ? record("refused", "too many") : null;
  }
  const dir = dirname(frame.file);
  const read = await readConfined(join(dir, spec), {
    roots: [dir],
    hidden: context.hidden,
    maxBytes: Math.min(context.maxFileBytes, context.budget.left),
  }).catch((error: Error) => ({ kind: "error" as const, message: error.name }));
  if (read.kind !== "text") return record("refused", ...refusalOf(read, context));
  if (isPrivate(relative(dir, read.real))) return record("refused", "hidden", PRIVATE);
  if (frame.chain.includes(read.real)) return record("refused", "cycle", read.real);
  if (context.seen.has(read.real)) return record("duplicate");
  context.seen.add(read.real);
  context.budget.left -= read.bytes.length;
  record("loaded");
  const body = await expand(
    read.text,
    { file: read.real, chain: [...frame.chain, read.real], depth },
    context,
  );
  return `<instruction-import path="${spec}">\n${body.trim()}\n</instruction-import>`;
}

function refusalOf(
  read: Exclude<ConfinedRead, { kind: "text" }> | { kind: "error"; message: string },
  context: ImportContext,
): [ImportRefusal, string] {
  if (read.kind === "error") {
    return ["unreadable", read.message === "PermissionDenied" ? "permission denied" : read.message];
  }
  if (read.kind === "missing") return ["unreadable", "not found"];
  if (read.kind === "skipped" && read.reason === "not a file") return ["unreadable", "not a file"];
  if (read.kind === "skipped") {
    const over = context.budget.left < context.maxFileBytes ? "the instructions' total" : "a file's";
    return ["over the size limit", `larger than ${over} limit`];
  }
  if (read.reason === "outside") return ["symlink escape", read.real];
  if (read.reason === "hidden") return ["hidden", `"${read.real}"`];
  return ["unreadable", "it changed while being read"];
}

/** A path with a `.git` or `.env*` segment. */
export function isPrivate(path: string): boolean {
  return path.split(/[\\/]/).some((segment) => PRIVATE_SEGMENT.test(segment));
}

/** `@user` is a mention, `@docs/style.md` or `@NOTES.md` a path. */
function looksLikePath(spec: string): boolean {
  return /[\\/]/.test(spec) || /\.\w+$/.test(spec);
}

/** One sentence for a refused import, for warnings and `/memory instructions`. */
export function describeImportRefusal(record: ImportRecord): string {
  const why: Record<ImportRefusal, string> = {
    absolute: "absolute paths are not imported",
    parent: "a path with `..` leaves the file's directory",
    "symlink escape": `it resolves outside the importing file's directory (to "${record.detail}")`,
    hidden: `it is a protected location (${record.detail})`,
    unreadable: `it cannot be read (${record.detail})`,
    cycle: "it imports itself through a cycle",
    "too deep": `imports nest at most ${MAX_IMPORT_DEPTH} levels`,
    "over the size limit": `it is ${record.detail}`,
    "too many": `one load follows at most ${MAX_IMPORTS} imports; this and later ones are not followed`,
  };
  return `Cannot import "@${record.spec}" in "${record.from}": ${why[record.reason ?? "unreadable"]}; ` +
    "the line is kept as text";
}
