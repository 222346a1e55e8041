/**
 * @module
 * `/memory`, `/remember` and `/forget`: the instruction files of a workspace and the standing notes
 * `/remember` keeps in one of them. A change is told to the running session on the tail of its next
 * user message (through `tell`); its system prompt stays as it was, so the cached prefix survives.
 */
import { basename } from "node:path";
import { type InstructionSource, instructionSources, memoryFile } from "../prompt/instructions.ts";
import { notesIn, oneLine, withNote, withoutNote } from "../prompt/notes.ts";
import { refusalFor } from "../lib/confined_read.ts";
import { ReasonixError } from "../lib/errors.ts";

export interface MemoryReport {
  sources: InstructionSource[];
  /** The file `/remember` writes to (it may not exist yet). */
  notesFile: string;
  notes: string[];
}

export type ForgetResult =
  | { kind: "forgotten"; note: string; file: string }
  | { kind: "none" }
  | { kind: "ambiguous"; matches: string[] };

export class Memory {
  #home: string;
  #workspace: string;
  #target: string | undefined;
  #tell: (note: string) => void = () => {};

  constructor(options: { home: string; workspace: string; target?: string }) {
    this.#home = options.home;
    this.#workspace = options.workspace;
    this.#target = options.target;
  }

  /** Connects the memory to the session that must hear about changes. */
  attach(tell: (note: string) => void): void {
    this.#tell = tell;
  }

  async report(): Promise<MemoryReport> {
    const notesFile = await memoryFile(this.#workspace);
    const sources = await instructionSources({
      home: this.#home,
      workspace: this.#workspace,
      ...(this.#target ? { target: this.#target } : {}),
    });
    const confined = await this.#confined(notesFile).then(() => true, () => false);
    return { sources, notesFile, notes: confined ? notesIn(await readOrEmpty(notesFile)) : [] };
  }

  /** Appends `- <note>` to the notes file; returns the file and the note as written. */
  async remember(text: string): Promise<{ file: string; note: string }> {
    const note = oneLine(text);
    if (!note) throw new RangeError("Cannot remember an empty note");
    const file = await this.#confined(await memoryFile(this.#workspace));
    await Deno.writeTextFile(file, withNote(await readOrEmpty(file), note));
    this.#tell(`Standing instruction added (saved to ${basename(file)}): ${note}`);
    return { file, note };
  }

  /** Removes a note by its number in `/memory` (1-based) or by a piece of its text. */
  async forget(query: string): Promise<ForgetResult> {
    const file = await this.#confined(await memoryFile(this.#workspace));
    const text = await readOrEmpty(file);
    const notes = notesIn(text);
    const index = pick(notes, query.trim());
    if (Array.isArray(index)) return { kind: "ambiguous", matches: index.map((i) => notes[i]!) };
    if (index < 0) return { kind: "none" };
    await Deno.writeTextFile(file, withoutNote(text, index));
    const note = notes[index]!;
    this.#tell(`Standing instruction withdrawn (removed from ${basename(file)}); stop following it: ${note}`);
    return { kind: "forgotten", note, file };
  }

  /** A notes file that is a symlink out of the workspace (to a home's .env) is neither read nor written. */
  async #confined(file: string): Promise<string> {
    const info = await Deno.lstat(file).catch(() => null);
    if (!info?.isSymlink) return file;
    const real = await Deno.realPath(file).catch(() => file);
    if (real !== file && await refusalFor(real, { roots: [this.#workspace], hidden: [] }) === null) {
      return file;
    }
    throw new ReasonixError(
      "memory.file_outside",
      `Cannot use "${file}" for notes: it points to "${real}", outside the workspace`,
    );
  }
}

function pick(notes: readonly string[], query: string): number | number[] {
  if (/^\d+$/.test(query)) {
    const n = Number(query);
    return n >= 1 && n <= notes.length ? n - 1 : -1;
  }
  const needle = query.toLowerCase();
  const exact = notes.findIndex((note) => note.toLowerCase() === needle);
  if (exact >= 0 || !needle) return exact;
  const matches = notes.flatMap((note, i) => note.toLowerCase().includes(needle) ? [i] : []);
  return matches.length === 1 ? matches[0]! : matches.length === 0 ? -1 : matches;
}

async function readOrEmpty(file: string): Promise<string> {
  try {
    return await Deno.readTextFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "";
    throw error;
  }
}
