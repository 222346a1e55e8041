/**
 * @module
 * The one way a session loads its instruction files: at session start (session_open.ts), on `/reload`
 * (reload.ts), for `/memory instructions`, and re-read for a compaction to tell the model what changed
 * (control/compaction.ts), always with the same guards and the same directories.
 */
import { relative, resolve } from "node:path";
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { readGuards } from "../config/hidden.ts";
import { type LoadedInstructions, loadInstructionFiles } from "../prompt/instructions.ts";
import type { InstructionFile } from "../prompt/system.ts";
import { refusalFor } from "../lib/confined_read.ts";

/** The workspace root and the directory its instruction files are read down to. */
export interface InstructionPlace {
  root: string;
  target: string;
}

export function sessionInstructions(
  paths: Paths,
  forbidRead: readonly string[],
  place: InstructionPlace,
): Promise<LoadedInstructions> {
  return loadInstructionFiles({
    home: paths.home,
    workspace: place.root,
    target: place.target,
    ...readGuards(paths, forbidRead),
  });
}

export function instructionReader(
  paths: Paths,
  config: ResolvedConfig,
  place: InstructionPlace,
): () => Promise<InstructionFile[]> {
  return async () => (await sessionInstructions(paths, config.sandbox.forbidRead, place)).files;
}

/**
 * Where Reasonix was started (`cwd`) when that is inside the workspace, else the root; compared by
 * real path, and given back under the root as spelled, so labels read `workspace/sub/AGENTS.md`.
 */
export async function instructionPlace(root: string, cwd: string): Promise<InstructionPlace> {
  const real = await Deno.realPath(resolve(cwd)).catch(() => null);
  const realRoot = await Deno.realPath(root).catch(() => root);
  if (real === null || await refusalFor(real, { roots: [realRoot], hidden: [] }) !== null) {
    return { root, target: root };
  }
  return { root, target: resolve(root, relative(realRoot, real)) };
}

/** The labels of the instruction files a system prompt was built with, in order. */
export function instructionLabels(system: string): string[] {
  const at = system.indexOf("\n# Instructions\n");
  if (at < 0) return [];
  return [...system.slice(at).matchAll(/^## (\S+) \((?:global|user|project|directory|local)\)$/gm)].map((
    match,
  ) => match[1]!);
}
