/**
 * @module
 * Re-reads the session's instruction files from disk with the same guards as at session start, for a
 * compaction to tell the model what changed (control/compaction.ts).
 */
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { readGuards } from "../config/hidden.ts";
import { loadInstructionFiles } from "../prompt/instructions.ts";
import type { InstructionFile } from "../prompt/system.ts";

export function instructionReader(
  paths: Paths,
  config: ResolvedConfig,
  workspace: string,
): () => Promise<InstructionFile[]> {
  return async () => {
    const loaded = await loadInstructionFiles({
      home: paths.home,
      workspace,
      ...readGuards(paths, config.sandbox.forbidRead),
    });
    return loaded.files;
  };
}

/** The labels of the instruction files a system prompt was built with, in order. */
export function instructionLabels(system: string): string[] {
  const at = system.indexOf("\n# Instructions\n");
  if (at < 0) return [];
  return [...system.slice(at).matchAll(/^## (\S+) \((?:user|project)\)$/gm)].map((match) => match[1]!);
}
