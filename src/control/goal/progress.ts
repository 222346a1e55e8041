/**
 * @module
 * Host-verifiable progress of one goal turn, from what the host itself observed, never from what the
 * model says: a file changed (a write, edit or move that landed), a todo item newly completed, a
 * verification command (tests, build, lint, type check) that exited 0, or, for a research goal, a file
 * read for the first time in this goal. A turn with none of these counts towards the no-progress stop.
 */
import type { ReasonixEvent } from "../events.ts";
import type { TodoItem } from "../../tool/session_state.ts";

/** A command that checks work rather than doing it (tests, builds, linters, type checkers), at the start of a segment. */
const VERIFY = new RegExp(
  String.raw`^(npx\s+|bunx\s+|python3?\s+-m\s+|uv\s+run\s+)?(pytest|jest|vitest|mocha|tsc|mypy|ruff|eslint|` +
    String.raw`make|ctest|go\s+(test|vet|build)|cargo\s+(test|check|build|clippy)|` +
    String.raw`(npm|pnpm|yarn|bun)\s+(run\s+)?(test|build|lint|check)|deno\s+(test|check|lint|task)|` +
    String.raw`\.\/[\w./-]*(test|check|verify)[\w.-]*)(\s|$)`,
);

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

/** Collects one turn's facts from the Controller's events (subscribe `listener` for the turn). */
export class ProgressWatch {
  readonly #reads: Set<string>;
  #commands = new Map<string, string>();
  facts: TurnFacts = emptyFacts();

  /** `reads`: the paths already read in this goal (kept across turns by the caller). */
  constructor(reads: Set<string>) {
    this.#reads = reads;
  }

  readonly listener = (event: ReasonixEvent): void => {
    if (event.type === "usage") this.facts.tokens += event.usage.promptTokens + event.usage.completionTokens;
    if (event.type === "tool_call" && event.name === "bash") {
      this.#commands.set(event.callId, event.arguments);
    }
    if (event.type === "tool_result") this.#result(event);
  };

  #result(event: Extract<ReasonixEvent, { type: "tool_result" }>): void {
    const data = event.data;
    if (data?.kind === "answers" && data.outcome !== "answered" && data.outcome !== "earlier") {
      this.facts.needsUser = true;
    }
    if (!event.ok || !data) return;
    if (data.kind === "diff" && data.before !== data.after) this.facts.filesChanged++;
    if (data.kind === "move") this.facts.filesChanged++;
    if (data.kind === "read" && !this.#reads.has(data.path)) {
      this.#reads.add(data.path);
      this.facts.newReads++;
    }
    if (data.kind === "bash" && data.exitCode === 0 && isVerification(this.#commands.get(event.callId))) {
      this.facts.verified++;
    }
  }
}

function emptyFacts(): TurnFacts {
  return { filesChanged: 0, todosCompleted: 0, verified: 0, newReads: 0, needsUser: false, tokens: 0 };
}

/** `arguments`: the bash call's JSON arguments. */
export function isVerification(args: string | undefined): boolean {
  if (args === undefined) return false;
  try {
    const command = (JSON.parse(args) as { command?: unknown }).command;
    if (typeof command !== "string") return false;
    const segments = command.toLowerCase().split(/&&|\|\||[;|\n]/);
    return segments.some((segment) => VERIFY.test(segment.trim().replace(/^(\w+=\S*\s+)+/, "")));
  } catch {
    return false;
  }
}

/** Whether the turn moved the goal, by the host's own observation. */
export function madeProgress(facts: TurnFacts, research: boolean): boolean {
  if (facts.filesChanged > 0 || facts.todosCompleted > 0 || facts.verified > 0) return true;
  return research && facts.newReads > 0;
}
