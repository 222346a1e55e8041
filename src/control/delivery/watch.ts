/**
 * @module
 * What verified delivery saw in one turn: the calls the gate judged (writer, change, bash command and
 * whether it checks the work, complete_step citation) and how each ended (tool results), reduced to
 * three facts: did a change succeed, did a verification command exit 0 after the last change, and did a
 * complete_step cite it.
 */
import type { ReasonixEvent } from "../events.ts";

/** How the gate judged one call, kept until its result arrives. */
export interface CallNote {
  /** A successful run changes the workspace (a file tool, a writer MCP tool, bash that writes files). */
  change: boolean;
  /** The bash command line, for a bash call that is not itself a change. */
  command?: string;
  /** That command checks the work (tests, a build, a type check, a linter: verifier.ts). */
  checks?: boolean;
  /** The command a `complete_step` with evidence "verification" cites. */
  cites?: string;
}

export interface WatchState {
  asksForChange: boolean;
  changed: boolean;
  /** The last verification command that exited 0 after the last change; null when none did. */
  verified: string | null;
  /** The last command that exited 0 after the last change without checking anything (`echo done`). */
  unchecked: string | null;
  /** A complete_step cited a verification command that passed after the last change. */
  cited: boolean;
  refusals: number;
}

/** One command, however it was spaced: the citation need not copy the whitespace. */
function commandKey(command: string): string {
  return command.trim().replace(/\s+/g, " ");
}

export class TurnWatch {
  readonly asksForChange: boolean;
  refusals = 0;
  #changed = false;
  #passed = new Set<string>();
  #verified: string | null = null;
  #unchecked: string | null = null;
  #cited = false;
  #notes = new Map<string, CallNote>();

  constructor(asksForChange: boolean) {
    this.asksForChange = asksForChange;
  }

  note(callId: string, note: CallNote): void {
    this.#notes.set(callId, note);
  }

  /** Tool results settle the calls the gate noted; every other event passes by. */
  observe(event: ReasonixEvent): void {
    if (event.type !== "tool_result") return;
    const note = this.#notes.get(event.callId);
    if (!note || !event.ok) return;
    this.#notes.delete(event.callId);
    if (note.change) {
      this.#changed = true;
      this.#passed.clear();
      this.#verified = null;
      this.#unchecked = null;
      this.#cited = false;
      return;
    }
    const data = event.data;
    const passed = data?.kind === "bash" && data.exitCode === 0 && !data.timedOut;
    if (note.command !== undefined && passed && !note.checks) this.#unchecked = note.command;
    if (note.command !== undefined && passed && note.checks) {
      this.#passed.add(commandKey(note.command));
      this.#verified = note.command;
    }
    if (note.cites !== undefined && this.#passed.has(commandKey(note.cites))) this.#cited = true;
  }

  state(): WatchState {
    return {
      asksForChange: this.asksForChange,
      changed: this.#changed,
      verified: this.#verified,
      unchecked: this.#unchecked,
      cited: this.#cited,
      refusals: this.refusals,
    };
  }
}
