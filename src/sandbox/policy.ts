/**
 * @module
 * What an OS sandbox enforces, independent of the mechanism: bubblewrap and Seatbelt render the same
 * policy.
 */

export interface SandboxPolicy {
  /** Realpaths writable inside the sandbox: the workspace and the extra roots. */
  writable: readonly string[];
  /** Paths that must look empty or unreadable: `forbid_read`, the Reasonix home and state, credential stores. */
  hidden: readonly string[];
  /** Paths inside writable roots that stay read-only, e.g. `.git/hooks` and `.git/config`. */
  readOnly?: readonly string[];
  /** The session's private temp dir; read at every call so a rotation takes effect at once. */
  tempDir: { readonly path: string };
  network: boolean;
}
