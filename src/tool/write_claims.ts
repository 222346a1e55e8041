/**
 * @module
 * What a writer subagent may change: its `write_paths`, resolved like any write (inside the writable
 * roots and the caller's own claim, never a hidden or read-only path), or the whole workspace when it
 * names none. Two claims overlap when one path holds the other; a whole-workspace claim overlaps every
 * other claim, so such a writer runs alone among writers.
 */
import { ToolError, type Workspace } from "./tool.ts";
import { displayPath, isDenied, resolveWritePath } from "./workspace_paths.ts";

export interface WriteClaim {
  /** Realpaths the writer may change; for a whole-workspace claim, the caller's writable places. */
  paths: readonly string[];
  /** No `write_paths` were given: the claim serialises with every other writer. */
  whole: boolean;
}

/** The most paths one claim may name. */
export const MAX_CLAIM_PATHS = 64;

/** Resolves `writePaths` against `ws` (the caller's workspace, with its own claim when it is a child). */
export async function resolveClaim(
  ws: Workspace,
  writePaths: readonly string[] | undefined,
): Promise<WriteClaim> {
  if (writePaths === undefined) {
    return { paths: ws.writeClaim ?? [ws.root, ...ws.extraWritable], whole: true };
  }
  if (writePaths.length === 0) {
    throw new ToolError("subagent.claim_empty", "write_paths is empty: name what the subagent may change");
  }
  if (writePaths.length > MAX_CLAIM_PATHS) {
    throw new ToolError("subagent.claim_too_large", `write_paths names more than ${MAX_CLAIM_PATHS} paths`);
  }
  const paths: string[] = [];
  for (const path of writePaths) paths.push(await resolveWritePath(ws, path));
  return { paths: [...new Set(paths)], whole: false };
}

export function claimsOverlap(a: WriteClaim, b: WriteClaim): boolean {
  if (a.whole || b.whole) return true;
  // Folded: on a case-insensitive disk `src` and `SRC` are one directory.
  return a.paths.some((x) => b.paths.some((y) => isDenied(x, y) || isDenied(y, x)));
}

/** `fleet`'s preflight: the first pair of claims that overlap, by task index; null when they are disjoint. */
export function firstOverlap(claims: readonly WriteClaim[]): [number, number] | null {
  for (let i = 0; i < claims.length; i++) {
    for (let j = i + 1; j < claims.length; j++) {
      if (claimsOverlap(claims[i]!, claims[j]!)) return [i, j];
    }
  }
  return null;
}

/** How a claim reads in a message: the paths relative to the workspace, or "the whole workspace". */
export function describeClaim(ws: Workspace, claim: WriteClaim): string {
  if (claim.whole) return "the whole workspace";
  return claim.paths.map((path) => `"${displayPath(ws, path)}"`).join(", ");
}
