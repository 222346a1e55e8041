/**
 * @module
 * Paths as the policy sees them: relative to the workspace when inside it (the subjects `Edit(...)`
 * rules match), and which ones a line may write outside the workspace and its writable roots.
 */
import { posix } from "node:path";

const TEMP_ROOT = "/tmp";

/** Rules are written relative to the workspace (`Edit(docs/**)`); outside paths stay absolute. */
export function relativeTo(root: string, path: string): string {
  const full = posix.normalize(posix.isAbsolute(path) ? path : posix.join(root, path));
  if (full === root) return ".";
  return full.startsWith(`${root}/`) ? full.slice(root.length + 1) : full;
}

/** Follows `cd` through a line, so relative paths resolve against the directory they run in. */
export class PathCheck {
  #roots: string[];
  #root: string;
  /** The current directory, or null after `cd` to somewhere the policy cannot name. */
  #cwd: string | null;

  constructor(roots: { root: string; extraWritable: readonly string[] }) {
    this.#root = roots.root;
    this.#cwd = roots.root;
    this.#roots = [roots.root, ...roots.extraWritable, TEMP_ROOT];
  }

  /** True once a `cd` has left the workspace root. */
  get moved(): boolean {
    return this.#cwd !== this.#root;
  }

  changeDirectory(target: string | null | undefined): void {
    if (target === undefined || target === null || target === "-" || target.startsWith("~")) {
      this.#cwd = null;
      return;
    }
    this.#cwd = this.#cwd === null && !posix.isAbsolute(target) ? null : this.#full(target);
  }

  /** The workspace-relative subject of `path`, or null when it cannot be resolved. */
  subject(path: string): string | null {
    if (path.startsWith("~")) return path;
    const full = this.#full(path);
    return full === null ? null : relativeTo(this.#root, full);
  }

  inside(path: string): boolean {
    if (path.startsWith("~")) return false;
    const full = this.#full(path);
    if (full === null) return false;
    return this.#roots.some((root) =>
      full === root || full.startsWith(root.endsWith("/") ? root : `${root}/`)
    );
  }

  #full(path: string): string | null {
    if (posix.isAbsolute(path)) return posix.normalize(path);
    return this.#cwd === null ? null : posix.normalize(posix.join(this.#cwd, path));
  }
}
