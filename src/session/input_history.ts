/**
 * @module
 * The input box's Up/Down history, one file per workspace next to that workspace's sessions, so
 * history typed in one project never surfaces in another.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { workspaceDir } from "./_paths.ts";

export const HISTORY_FILE = "input_history.json";
export const DEFAULT_HISTORY_LIMIT = 500;

export class InputHistory {
  #lines: string[] = [];
  readonly file: string;
  readonly limit: number;

  constructor(sessionsDir: string, workspace: string, limit = DEFAULT_HISTORY_LIMIT) {
    this.file = join(workspaceDir(sessionsDir, workspace), HISTORY_FILE);
    this.limit = limit;
  }

  /** Reads the stored history; a missing or unreadable file starts an empty one. */
  async load(): Promise<string[]> {
    this.#lines = parseLines(await readOrEmpty(this.file)).slice(-this.limit);
    return this.entries();
  }

  entries(): string[] {
    return [...this.#lines];
  }

  /** Appends a submitted line (oldest first) and persists; blank lines and repeats are skipped. */
  async add(line: string): Promise<void> {
    if (line.trim() === "" || this.#lines.at(-1) === line) return;
    this.#lines = [...this.#lines, line].slice(-this.limit);
    await writeFileAtomic(this.file, JSON.stringify(this.#lines), { mkdirs: true, mode: 0o600 });
  }
}

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "[]";
    throw error;
  }
}

function parseLines(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    return [];
  }
}
