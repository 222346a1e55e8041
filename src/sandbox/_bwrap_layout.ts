/**
 * @module
 * What bubblewrap must mount for one call, read from the filesystem just before it: which hidden and
 * read-only paths exist and of what kind, which directories to pin, and where the temp dir goes.
 */
import { basename, dirname, join } from "node:path";
import { isUnder, type MaskKind, maskKinds } from "./_masks.ts";
import type { SandboxPolicy } from "./policy.ts";

export interface BwrapLayout {
  /** The hidden paths that exist, with their kind; missing ones need no mask. */
  masks: ReadonlyMap<string, MaskKind>;
  /** Read-only paths that exist: bound read-only over themselves. */
  readOnly: readonly string[];
  /** Missing read-only paths in an existing directory: an empty read-only directory takes the name. */
  placeholders: readonly string[];
  /**
   * Directories bound writable over themselves: a mount point cannot be renamed or removed, so a
   * command cannot move a masked or read-only path away (or swap a `.git` file) to reach it later.
   */
  pins: readonly string[];
  /** Read-only files bound because a read-only path would live under them (a worktree's `.git` file). */
  lockedFiles: readonly string[];
  /**
   * A writable root or the cwd is under /tmp: the host's /tmp stays visible read-only, so a write
   * outside the roots fails loudly instead of landing in a private /tmp, and the temp dir is bound at
   * its own path.
   */
  hostTmp: boolean;
}

export function bwrapLayout(policy: SandboxPolicy, cwd: string): BwrapLayout {
  const masks = maskKinds(policy.hidden);
  const readOnly: string[] = [];
  const placeholders: string[] = [];
  const lockedFiles: string[] = [];
  for (const path of policy.readOnly ?? []) {
    const real = realPath(path);
    const parent = realPath(dirname(path));
    if (real) readOnly.push(real);
    else if (parent && kindOf(parent) === "dir") placeholders.push(join(parent, basename(path)));
    else if (parent && kindOf(parent) === "file") lockedFiles.push(parent);
  }
  const protectedPaths = [...masks.keys(), ...readOnly, ...placeholders];
  const pins = new Set<string>();
  for (const path of protectedPaths) {
    const root = policy.writable.find((candidate) => isUnder(path, candidate) && path !== candidate);
    if (!root) continue;
    for (let dir = dirname(path); dir !== root && isUnder(dir, root); dir = dirname(dir)) {
      if (kindOf(dir) === "dir") pins.add(dir);
    }
  }
  const hostTmp = [...policy.writable, cwd].some((path) => isUnder(path, "/tmp"));
  return {
    masks,
    readOnly,
    placeholders,
    pins: [...pins].sort((a, b) => a.length - b.length),
    lockedFiles: [...new Set(lockedFiles)],
    hostTmp,
  };
}

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

function kindOf(path: string): MaskKind | "missing" | "other" {
  try {
    const info = Deno.statSync(path);
    if (info.isDirectory) return "dir";
    return info.isFile ? "file" : "other";
  } catch {
    return "missing";
  }
}
