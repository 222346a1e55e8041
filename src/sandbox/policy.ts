/**
 * @module
 * What an OS sandbox enforces, independent of the mechanism: bubblewrap and Seatbelt render the same
 * policy.
 */

export interface SandboxPolicy {
  /** Realpaths writable inside the sandbox: the workspace and the extra roots. */
  writable: readonly string[];
  /** Paths that must look empty or unreadable: `forbid_read` and `<home>/.env`. */
  hidden: readonly string[];
  /** The session's private temp dir; read at every call so a rotation takes effect at once. */
  tempDir: { readonly path: string };
  network: boolean;
}
