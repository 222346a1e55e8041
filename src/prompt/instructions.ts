/**
 * @module
 * Instruction files (REASONIX.md, AGENTS.md, CLAUDE.md and their .local variants) from the user's
 * home and the workspace root, in a fixed order so the system prompt is byte-stable.
 */
import { join } from "node:path";
import type { InstructionFile } from "./system.ts";

const NAMES = [
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
  for (const name of NAMES) {
    const text = await readSmall(join(options.home, name));
    if (text !== undefined) files.push({ label: `user/${name}`, scope: "user", text });
  }
  for (const name of NAMES) {
    const text = await readSmall(join(options.workspace, name));
    if (text !== undefined) files.push({ label: `workspace/${name}`, scope: "project", text });
  }
  return files;
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
