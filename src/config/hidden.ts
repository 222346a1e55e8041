/**
 * @module
 * The places no file Reasonix loads for a project or a prompt may come from: the whole Reasonix home
 * and state (keys, trust.json, config, sessions), `forbid_read`, and well-known credential locations.
 */
import { join } from "node:path";
import type { Paths } from "./paths.ts";
import { SENSITIVE_LOCATIONS } from "./protected_paths.ts";

/** For what a project provides: nothing from the home or state directories at all. */
export function hiddenPaths(paths: Paths, forbidRead: readonly string[]): string[] {
  return [
    ...new Set([
      paths.home,
      paths.stateHome,
      paths.envFile,
      paths.trustFile,
      paths.globalConfigFile,
      ...SENSITIVE_LOCATIONS.map((name) => join(paths.userHome, name)),
      ...forbidRead,
    ]),
  ];
}

/**
 * For the user's own files (instruction files in the home, a global system_prompt_file): they may
 * live in the home, but never resolve to its keys, trust, config, sessions, remembered facts or MCP tokens.
 */
export function secretPaths(paths: Paths, forbidRead: readonly string[]): string[] {
  return [
    ...new Set([
      paths.envFile,
      paths.trustFile,
      paths.globalConfigFile,
      paths.sessionsDir,
      join(paths.stateHome, "memory"),
      paths.mcpAuthDir,
      ...SENSITIVE_LOCATIONS.map((name) => join(paths.userHome, name)),
      ...forbidRead,
    ]),
  ];
}

/** Both lists, for whoever loads instruction files. */
export function readGuards(
  paths: Paths,
  forbidRead: readonly string[],
): { hidden: string[]; secrets: string[] } {
  return { hidden: hiddenPaths(paths, forbidRead), secrets: secretPaths(paths, forbidRead) };
}
