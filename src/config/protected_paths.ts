/**
 * @module
 * The paths no tool and no bash command may read or write, whatever the workspace: Reasonix's own home
 * and state (config, `.env`, trust.json, sessions), the user's `forbid_read`, and well-known credential
 * stores. Plus the paths that stay read-only inside writable roots because the host runs them later
 * (`.git/hooks`, `.git/config`). Every boundary (file tools, bubblewrap, Seatbelt) reads this one list.
 */
import { join } from "node:path";
import type { Paths } from "./paths.ts";
import type { ResolvedConfig } from "./types.ts";

/** Relative to the user's home; hidden unless `[secrets] protect_sensitive_files = false`. */
export const SENSITIVE_LOCATIONS: readonly string[] = [
  ".ssh",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".config/gh",
  ".config/op",
  ".netrc",
  ".git-credentials",
  ".docker/config.json",
  ".kube",
  ".gnupg",
  ".password-store",
  ".vault-token",
  ".npmrc",
  ".pypirc",
  ".cargo/credentials.toml",
  ".terraform.d/credentials.tfrc.json",
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  "snap/chromium",
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Firefox",
  "Library/Keychains",
];

/** Inside every writable root that is a git work tree: the host runs what these name. */
const GIT_EXECUTABLE_STATE = [".git/hooks", ".git/config"];

export interface ProtectedPaths {
  /** Absolute paths that look missing to tools and are masked in the sandbox. */
  hidden: string[];
  /** Absolute paths under writable roots that stay read-only to tools and bash. */
  readOnly: string[];
}

export function protectedPaths(
  config: ResolvedConfig,
  paths: Paths,
  writableRoots: readonly string[],
): ProtectedPaths {
  const hidden = [
    ...config.sandbox.forbidRead,
    paths.home,
    paths.stateHome,
    paths.envFile,
    ...paths.legacyConfigFiles,
  ];
  if (config.secrets.protectSensitiveFiles) {
    hidden.push(...SENSITIVE_LOCATIONS.map((entry) => join(paths.userHome, entry)));
  }
  const readOnly = config.sandbox.protectGit
    ? writableRoots.flatMap((root) => GIT_EXECUTABLE_STATE.map((entry) => join(root, entry)))
    : [];
  return { hidden: [...new Set(hidden)], readOnly: [...new Set(readOnly)] };
}
