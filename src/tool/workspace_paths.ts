/**
 * @module
 * Confines tool paths to the workspace. Inputs are resolved against the root, symlinks are followed
 * component by component (so dangling links and loops are caught too), and the real path must stay
 * inside an allowed root. `forbidRead` paths look exactly like missing files.
 */
import { dirname, isAbsolute, join, normalize, parse, relative, sep } from "node:path";
import { ToolError, type Workspace } from "./tool.ts";

const MAX_SYMLINK_HOPS = 40;

export async function resolveReadPath(ws: Workspace, input: string): Promise<string> {
  const real = await resolveInput(ws, input, "read");
  if (isDeniedAny(real, await forbiddenPaths(ws))) throw notFound(input);
  return real;
}

/**
 * A path a tool may create, change, move or remove: inside a writable root, not hidden, not read-only,
 * and not a directory that holds a hidden or read-only path (moving that would carry it elsewhere).
 */
export async function resolveWritePath(ws: Workspace, input: string): Promise<string> {
  const real = await resolveInput(ws, input, "write");
  await assertWritable(ws, real, input);
  return real;
}

/** The protected-path half of `resolveWritePath`, for a path already resolved (a symlink entry). */
export async function assertWritable(ws: Workspace, real: string, input: string): Promise<void> {
  assertClaimed(ws, real, input);
  const hidden = (await forbiddenPaths(ws)).find((entry) => isDenied(real, entry) || isDenied(entry, real));
  if (hidden !== undefined) {
    const what = isDenied(real, hidden)
      ? "the path is hidden from tools"
      : `it holds "${hidden}", which is hidden`;
    throw new ToolError(
      "tool.path_forbidden",
      `Cannot write "${input}": ${what} (Reasonix's own files, credential stores and [sandbox] forbid_read)`,
    );
  }
  const locked = (await readOnlyPaths(ws)).find((entry) => isDenied(real, entry) || isDenied(entry, real));
  if (locked !== undefined) {
    const what = isDenied(real, locked) ? `"${locked}" is` : `it holds "${locked}", which is`;
    throw new ToolError(
      "tool.path_read_only",
      `Cannot write "${input}": ${what} read-only to tools: hooks run on your machine at the next git ` +
        "command; set [sandbox] protect_git = false in your user config to allow",
    );
  }
}

/** A writer subagent may change only what its `write_paths` claim names (tool.ts Workspace.writeClaim). */
function assertClaimed(ws: Workspace, real: string, input: string): void {
  if (!ws.writeClaim || isInsideAny(real, ws.writeClaim)) return;
  const claim = ws.writeClaim.map((path) => `"${displayPath(ws, path)}"`).join(", ");
  throw new ToolError(
    "tool.path_outside_claim",
    `Cannot write "${input}": this subagent may only change its write_paths (${claim || "nothing"})`,
  );
}

/** Resolves a path inside the writable roots with no protected-path check (a move's source parent). */
export async function resolveInsideRoots(ws: Workspace, input: string): Promise<string> {
  return await resolveInput(ws, input, "write");
}

/** Re-checks a path from `resolveWritePath` right before writing: it must still resolve to itself. */
export async function assertStillInside(ws: Workspace, abs: string): Promise<void> {
  const real = await realPathOf(abs, abs);
  if (!isInsideAny(real, allowedRoots(ws))) throw outside(abs, real, allowedRoots(ws), "write");
  assertClaimed(ws, real, abs);
  if (real !== abs) {
    throw new ToolError(
      "tool.path_changed",
      `Cannot write "${abs}": the path changed since it was checked (now resolves to "${real}")`,
    );
  }
}

/** The path relative to the workspace root when inside it, otherwise the absolute path. */
export function displayPath(ws: Workspace, abs: string): string {
  if (abs === ws.root) return ".";
  if (!isInside(abs, ws.root)) return abs;
  const rel = relative(ws.root, abs);
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** Forbidden paths as given and as resolved, for synchronous checks while walking a tree. */
export async function forbiddenPaths(ws: Workspace): Promise<string[]> {
  return await withRealPaths(ws.forbidRead);
}

async function readOnlyPaths(ws: Workspace): Promise<string[]> {
  return await withRealPaths(ws.readOnly ?? []);
}

async function withRealPaths(entries: readonly string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const entry of entries) {
    const abs = normalize(entry);
    out.add(abs);
    try {
      out.add(await realPathOf(abs, abs));
    } catch {
      // An unresolvable entry (a loop) still hides its literal path.
    }
  }
  return [...out];
}

export function isInsideAny(abs: string, roots: readonly string[]): boolean {
  return roots.some((root) => isInside(abs, root));
}

export function isInside(abs: string, root: string): boolean {
  if (abs === root) return true;
  const prefix = root.endsWith(sep) ? root : root + sep;
  return abs.startsWith(prefix);
}

/**
 * `isInside` for a deny list (hidden or read-only paths), compared folded: a case-insensitive disk (macOS,
 * Windows, a casefolded Linux directory) opens `.GIT/hooks`, `.git/hookſ` or another normalisation of a
 * name as the protected path. On a case-sensitive disk this only refuses a few more look-alike names.
 */
export function isDenied(abs: string, denied: string): boolean {
  return isInside(foldPath(abs), foldPath(denied));
}

export function isDeniedAny(abs: string, denied: readonly string[]): boolean {
  const folded = foldPath(abs);
  return denied.some((entry) => isInside(folded, foldPath(entry)));
}

/** Decomposed, then upper- and lower-cased, so `ſ`, `K` (Kelvin) and `ß` meet their ASCII look-alikes. */
export function foldPath(path: string): string {
  // deno-lint-ignore no-control-regex
  if (/^[\x00-\x7f]*$/.test(path)) return path.toLowerCase();
  return path.normalize("NFD").toUpperCase().toLowerCase();
}

export function notFound(input: string): ToolError {
  return new ToolError("tool.not_found", `Cannot access "${input}": no such file or directory`);
}

/** Reads and writes share the same roots: the workspace plus `--add-dir` / `allow_write`. */
function allowedRoots(ws: Workspace): string[] {
  return [ws.root, ...ws.extraWritable];
}

async function resolveInput(ws: Workspace, input: string, mode: "read" | "write"): Promise<string> {
  if (input === "" || input.includes("\0")) {
    throw new ToolError("tool.path_invalid", `Cannot use path "${input}": the path is empty or contains NUL`);
  }
  if (input.split(/[\\/]/).includes("..")) {
    throw new ToolError(
      "tool.path_traversal",
      `Cannot use "${input}": ".." segments are not allowed; give a path inside the workspace`,
    );
  }
  const abs = isAbsolute(input) ? normalize(input) : join(ws.root, input);
  const roots = allowedRoots(ws);
  const real = await realPathOf(abs, input);
  if (!isInsideAny(real, roots)) throw outside(input, real, roots, mode);
  return real;
}

function outside(input: string, real: string, roots: readonly string[], mode: "read" | "write"): ToolError {
  const via = real === normalize(input) ? "" : ` (resolves to "${real}")`;
  const allowed = roots.map((root) => `"${root}"`).join(", ");
  const what = mode === "read" ? "outside the workspace" : "outside the writable roots";
  return new ToolError(
    "tool.path_outside_workspace",
    `Cannot ${mode} "${input}"${via}: ${what}; allowed roots are ${allowed} (add more with --add-dir)`,
  );
}

/**
 * Resolves every symlink in `abs`, including dangling ones, without requiring the tail to exist:
 * the missing part is appended as written. Loops end in `tool.path_invalid`.
 */
async function realPathOf(abs: string, input: string): Promise<string> {
  let current = parse(abs).root;
  let pending = segments(abs);
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending.shift()!;
    if (segment === "..") {
      current = dirname(current);
      continue;
    }
    const next = join(current, segment);
    const info = await lstatOrNull(next);
    if (info === null) return join(next, ...pending);
    if (!info.isSymlink) {
      current = next;
      continue;
    }
    if (++hops > MAX_SYMLINK_HOPS) {
      throw new ToolError(
        "tool.path_invalid",
        `Cannot resolve "${input}": too many levels of symbolic links`,
      );
    }
    const target = await Deno.readLink(next).catch(() => {
      // lstat said symlink and it is gone or no longer a link: something is swapping it right now.
      throw new ToolError(
        "tool.path_changed",
        `Cannot resolve "${input}": the path changed while it was checked`,
      );
    });
    if (isAbsolute(target)) current = parse(target).root;
    pending = [...segments(target), ...pending];
  }
  return current;
}

function segments(path: string): string[] {
  return path.split(/[\\/]/).filter((part, index) =>
    part !== "" && part !== "." && !(index === 0 && /^[A-Za-z]:$/.test(part))
  );
}

/** The entry itself (a link is not followed), or null where nothing is. */
export async function lstatOrNull(path: string): Promise<Deno.FileInfo | null> {
  try {
    return await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return null;
    throw error;
  }
}
