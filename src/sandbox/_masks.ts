/**
 * @module
 * Which hidden paths exist and whether each is a directory, so a sandbox knows how to mask it.
 */
import { sep } from "node:path";

export type MaskKind = "dir" | "file";

/** Keyed by real path: a mount lands on the symlink's target anyway, and masking it hides both names. */
export function maskKinds(paths: readonly string[]): Map<string, MaskKind> {
  const kinds = new Map<string, MaskKind>();
  for (const path of paths) {
    try {
      const real = Deno.realPathSync(path);
      kinds.set(real, Deno.statSync(real).isDirectory ? "dir" : "file");
    } catch {
      // Missing or unreadable: nothing to mask.
    }
  }
  // A path inside a masked directory is hidden already, and bubblewrap could not mount over it anyway.
  for (const [path] of kinds) {
    for (const [other, kind] of kinds) {
      if (kind === "dir" && other !== path && isUnder(path, other)) kinds.delete(path);
    }
  }
  return kinds;
}

export function isUnder(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
