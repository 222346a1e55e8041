/**
 * @module
 * Instruction files (REASONIX.md, AGENTS.md, CLAUDE.md and their .local variants) from the user's
 * home and the workspace root, in a fixed order so the system prompt is byte-stable.
 */
import { join } from "node:path";
import { type ConfinedReadOptions, describeRefusal, readConfined } from "../lib/confined_read.ts";
import type { InstructionFile } from "./system.ts";

export const INSTRUCTION_NAMES = [
  "REASONIX.md",
  "AGENTS.md",
  "CLAUDE.md",
  "REASONIX.local.md",
  "AGENTS.local.md",
  "CLAUDE.local.md",
];
const MAX_BYTES = 64 * 1024;

export interface InstructionOptions {
  home: string;
  workspace: string;
  /** Where a workspace file may not resolve to (the whole Reasonix home, forbid_read, credentials). */
  hidden: readonly string[];
  /** Where a file in the home may not resolve to (its .env, trust.json, config, sessions). */
  secrets: readonly string[];
}

export interface LoadedInstructions {
  files: InstructionFile[];
  /** One sentence per refused file: which file, and where it points. */
  warnings: string[];
}

/**
 * A workspace file must resolve inside the workspace: `AGENTS.md -> ~/.reasonix/.env` in a cloned
 * repository would otherwise put the user's key into the prompt and the session file.
 */
export async function loadInstructionFiles(options: InstructionOptions): Promise<LoadedInstructions> {
  const loaded: LoadedInstructions = { files: [], warnings: [] };
  const read = async (path: string, guard: ConfinedReadOptions, file: Omit<InstructionFile, "text">) => {
    const result = await readConfined(path, { ...guard, maxBytes: MAX_BYTES }).catch(() => null);
    if (result?.kind === "refused") loaded.warnings.push(describeRefusal(path, result));
    if (result?.kind === "text" && result.text !== "") loaded.files.push({ ...file, text: result.text });
  };
  for (const name of INSTRUCTION_NAMES) {
    await read(join(options.home, name), { hidden: options.secrets }, {
      label: `user/${name}`,
      scope: "user",
    });
  }
  for (const name of INSTRUCTION_NAMES) {
    await read(join(options.workspace, name), { roots: [options.workspace], hidden: options.hidden }, {
      label: `workspace/${name}`,
      scope: "project",
    });
  }
  return loaded;
}

/** An instruction file on disk, whether or not the prompt takes it (empty or over the size limit). */
export interface InstructionSource {
  path: string;
  scope: "user" | "project";
  bytes: number;
  loaded: boolean;
}

/** The instruction files that exist for this home and workspace, in load order (`/memory`). */
export async function instructionSources(
  options: { home: string; workspace: string },
): Promise<InstructionSource[]> {
  const sources: InstructionSource[] = [];
  for (const [dir, scope] of [[options.home, "user"], [options.workspace, "project"]] as const) {
    for (const name of INSTRUCTION_NAMES) {
      const path = join(dir, name);
      const info = await Deno.stat(path).catch(() => null);
      if (!info?.isFile) continue;
      sources.push({ path, scope, bytes: info.size, loaded: info.size > 0 && info.size <= MAX_BYTES });
    }
  }
  return sources;
}

/** Where `/remember` writes: the workspace AGENTS.md, or REASONIX.md when that is the only one there. */
export async function memoryFile(workspace: string): Promise<string> {
  const exists = (name: string) => Deno.stat(join(workspace, name)).then((i) => i.isFile, () => false);
  if (!await exists("AGENTS.md") && await exists("REASONIX.md")) return join(workspace, "REASONIX.md");
  return join(workspace, "AGENTS.md");
}
