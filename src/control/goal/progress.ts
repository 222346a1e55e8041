/**
 * @module
 * Host-verifiable progress of one goal turn, from what the host itself observed, never from what the
 * model says: a file changed (a write, edit or move that landed), a todo item newly completed, a
 * command that checks the work (tests, build, lint, type check: the same judgement verified delivery
 * uses, delivery/verifier.ts) that exited 0, or, for a research goal, a file read for the first time in
 * this goal. A turn with none of these counts towards the no-progress stop.
 */
import type { ReasonixEvent } from "../events.ts";
import type { TodoItem } from "../../tool/session_state.ts";

export interface TurnFacts {
  filesChanged: number;
  todosCompleted: number;
  verified: number;
  newReads: number;
  /** An `ask` went unanswered: a decision needs the user. */
  needsUser: boolean;
  /** Tokens (prompt + completion) of this turn's requests. */
  tokens: number;
}

export function completedCount(todos: readonly TodoItem[]): number {
  return todos.filter((todo) => todo.status === "completed").length;
}

/** Judges a bash command line that exited 0: does it check the work? */
export type CheckJudge = (command: string) => Promise<boolean>;

/** Collects one turn's facts from the Controller's events (subscribe `listener` for the turn). */
export class ProgressWatch {
  readonly #reads: Set<string>;
  readonly #checks: CheckJudge;
  #commands = new Map<string, string>();
  #judging: Promise<void>[] = [];
  #facts: TurnFacts = emptyFacts();

  /** `reads`: the paths already read in this goal (kept across turns by the caller). */
  constructor(reads: Set<string>, checks: CheckJudge) {
    this.#reads = reads;
    this.#checks = checks;
  }

  /** The turn's facts once every passing command has been judged. */
  async facts(): Promise<TurnFacts> {
    await Promise.all(this.#judging);
    return this.#facts;
  }

  readonly listener = (event: ReasonixEvent): void => {
    if (event.type === "usage") this.#facts.tokens += event.usage.promptTokens + event.usage.completionTokens;
    if (event.type === "tool_call" && event.name === "bash") {
      const command = foregroundCommand(event.arguments);
      if (command !== null) this.#commands.set(event.callId, command);
    }
    if (event.type === "tool_result") this.#result(event);
  };

  #result(event: Extract<ReasonixEvent, { type: "tool_result" }>): void {
    const data = event.data;
    if (data?.kind === "answers" && data.outcome !== "answered" && data.outcome !== "earlier") {
      this.#facts.needsUser = true;
    }
    if (!event.ok || !data) return;
    if (data.kind === "diff" && data.before !== data.after) this.#facts.filesChanged++;
    if (data.kind === "move") this.#facts.filesChanged++;
    if (data.kind === "read" && !this.#reads.has(data.path)) {
      this.#reads.add(data.path);
      this.#facts.newReads++;
    }
    const command = this.#commands.get(event.callId);
    if (data.kind === "bash" && data.exitCode === 0 && !data.timedOut && command !== undefined) {
      this.#judging.push(
        this.#checks(command).catch(() => false).then((checks) => {
          if (checks) this.#facts.verified++;
        }),
      );
    }
  }
}

function emptyFacts(): TurnFacts {
  return { filesChanged: 0, todosCompleted: 0, verified: 0, newReads: 0, needsUser: false, tokens: 0 };
}

/** The command of a bash call's JSON arguments; null for a background job or unreadable arguments. */
function foregroundCommand(args: string): string | null {
  try {
    const parsed = JSON.parse(args) as { command?: unknown; run_in_background?: unknown };
    return typeof parsed.command === "string" && parsed.run_in_background !== true ? parsed.command : null;
  } catch {
    return null;
  }
}

/** Whether the turn moved the goal, by the host's own observation. */
export function madeProgress(facts: TurnFacts, research: boolean): boolean {
  if (facts.filesChanged > 0 || facts.todosCompleted > 0 || facts.verified > 0) return true;
  return research && facts.newReads > 0;
}
