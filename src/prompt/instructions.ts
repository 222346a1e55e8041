/**
 * @module
 * Instruction files (REASONIX.md, AGENTS.md, CLAUDE.md and their .local variants) from the user's
 * home and the workspace root, in a fixed order so the system prompt is byte-stable.
 */
import { join } from "node:path";
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

export async function loadInstructionFiles(
  options: { home: string; workspace: string },
): Promise<InstructionFile[]> {
  const files: InstructionFile[] = [];
  for (const name of INSTRUCTION_NAMES) {
    const text = await readSmall(join(options.home, name));
    if (text !== undefined) files.push({ label: `user/${name}`, scope: "user", text });
  }
  for (const name of INSTRUCTION_NAMES) {
    const text = await readSmall(join(options.workspace, name));
    if (text !== undefined) files.push({ label: `workspace/${name}`, scope: "project", text });
  }
  return files;
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

async function readSmall(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_BYTES || info.size === 0) return undefined;
    return await Deno.readTextFile(path);
  } catch {
    return undefined;
  }
}
