/**
 * @module
 * Goal mode: the Controller keeps working, turn after turn, towards one objective until it is complete,
 * blocked, stopped, out of budget, without host-verifiable progress for four turns, paused, or waiting on
 * a decision of the user's. Each turn is an ordinary user turn whose text is a short host note on the
 * tail; the model reports with `update_goal` (proxied, so the tools array never changes). The state is
 * the session's goal sidecar, written after every change, and every change reaches the faces as a
 * `goal_updated` event.
 */
import type { GoalSnapshot, ReasonixEvent } from "../events.ts";
import type { TurnOutcome } from "../turn_outcome.ts";
import type { SessionToolState, TodoItem } from "../../tool/session_state.ts";
import { readGoalFile, writeGoalFile } from "../../session/goal_file.ts";
import { errorFields, ReasonixError } from "../../lib/errors.ts";
import { t } from "../../lib/i18n/mod.ts";
import { type CheckJudge, completedCount, madeProgress, ProgressWatch, type TurnFacts } from "./progress.ts";
import { halted, loadedGoal, newGoal, resumed, type StopCause, toolGoal } from "./record.ts";
import { continuationText, firstTurnText } from "./notes.ts";

/** What `/goal`, `reasonix run --goal` and the faces use. */
export interface GoalPort {
  /** The goal as it stands (loaded from the sidecar on first use); null when there is none. */
  current(): Promise<GoalSnapshot | null>;
  /** Starts a new goal and runs it until it stops; resolves with how it ended. */
  start(objective: string): Promise<GoalSnapshot>;
  /** Runs a paused or blocked goal again (one more budget after a budget stop). */
  resume(): Promise<GoalSnapshot>;
  /** Pauses after the running turn (at once when none runs). */
  pause(): Promise<GoalSnapshot | null>;
  /** Ends the goal (the running turn is interrupted) and removes its sidecar. */
  stop(): Promise<GoalSnapshot | null>;
}

/** The Controller as goal mode sees it. */
export interface GoalHost {
  readonly sessionFile: string;
  readonly busy: boolean;
  runTurn(text: string): Promise<TurnOutcome>;
  interrupt(): void;
  todos(): TodoItem[];
  /** The tools' shared state: `update_goal` reads and writes `goal` there. */
  readonly state: SessionToolState | undefined;
  emit(event: ReasonixEvent): void;
  /** Called with true when a goal starts running, false when it stops: verified delivery is on meanwhile. */
  running(on: boolean): void;
  /** Whether a bash command that exited 0 checks the work (delivery/verifier.ts). */
  checks: CheckJudge;
}

export class GoalDesk implements GoalPort {
  readonly #host: GoalHost;
  #goal: GoalSnapshot | null = null;
  #loaded: Promise<void> | null = null;
  #running = false;
  #request: "paused" | "stopped" | null = null;
  #watch: ProgressWatch | null = null;
  /** Paths read in this goal (a research goal's progress). */
  #reads = new Set<string>();

  constructor(host: GoalHost) {
    this.#host = host;
  }

  /** A goal is running turns (between two of them too). */
  get running(): boolean {
    return this.#running;
  }

  /** Every Controller event passes here; the running turn's facts are gathered from them. */
  observe(event: ReasonixEvent): void {
    this.#watch?.listener(event);
  }

  /** Tells the faces about a goal this session already has (a continued session): paused, blocked or running. */
  async announce(): Promise<void> {
    await this.#load();
    const goal = this.#goal;
    if (goal && goal.status !== "complete") {
      this.#host.emit({ type: "goal_updated", goal: structuredClone(goal) });
    }
  }

  async current(): Promise<GoalSnapshot | null> {
    await this.#load();
    return this.#goal && structuredClone(this.#goal);
  }

  async start(objective: string): Promise<GoalSnapshot> {
    await this.#load();
    const text = objective.trim();
    if (text === "") throw new ReasonixError("usage.goal", "Cannot start a goal: give its objective");
    this.#refuseWhileRunning();
    this.#reads = new Set();
    return await this.#run(true, () => this.#set(newGoal(text, `g${crypto.randomUUID().slice(0, 8)}`)));
  }

  async resume(): Promise<GoalSnapshot> {
    await this.#load();
    const goal = this.#goal;
    if (!goal || goal.status === "complete" || goal.status === "stopped") {
      throw new ReasonixError("goal.none", "Cannot resume: there is no paused or blocked goal");
    }
    this.#refuseWhileRunning();
    return await this.#run(false, () => this.#set(resumed(goal)));
  }

  async pause(): Promise<GoalSnapshot | null> {
    await this.#load();
    if (this.#running) this.#request = "paused";
    else if (this.#goal?.status === "active") await this.#set(halted(this.#goal, "paused"));
    return this.current();
  }

  async stop(): Promise<GoalSnapshot | null> {
    await this.#load();
    const goal = this.#goal;
    if (!goal) return null;
    if (this.#running) {
      this.#request = "stopped";
      this.#host.interrupt();
      return structuredClone(goal);
    }
    await this.#end(halted(goal, "stopped"));
    return halted(goal, "stopped");
  }

  #refuseWhileRunning(): void {
    if (this.#host.busy) throw new ReasonixError("session.busy", t("session.busy"));
  }

  /** The sidecar, read once; an unreadable one is reported and taken as no goal (a new goal replaces it). */
  #load(): Promise<void> {
    return this.#loaded ??= readGoalFile(this.#host.sessionFile).then(
      (stored) => {
        this.#goal = stored && loadedGoal(stored);
      },
      (error) => this.#host.emit({ type: "warning", message: errorFields(error).message }),
    );
  }

  /** Runs turns until the goal is no longer active; `prepare` (the goal's new state) runs already counted as running. */
  async #run(first: boolean, prepare: () => Promise<void>): Promise<GoalSnapshot> {
    this.#running = true;
    this.#request = null;
    this.#host.running(true);
    try {
      await prepare();
      let fresh = first;
      while (this.#goal?.status === "active") {
        await this.#turn(fresh);
        fresh = false;
      }
    } finally {
      this.#running = false;
      this.#host.running(false);
      if (this.#host.state) this.#host.state.goal = null;
    }
    const goal = this.#goal!;
    if (goal.status === "stopped") await this.#end(goal, false);
    return structuredClone(goal);
  }

  async #turn(first: boolean): Promise<void> {
    const goal = this.#goal!;
    const state = this.#host.state;
    if (state) state.goal = toolGoal(goal);
    const before = completedCount(this.#host.todos());
    const watch = new ProgressWatch(this.#reads, this.#host.checks);
    this.#watch = watch;
    let outcome: TurnOutcome;
    try {
      outcome = await this.#host.runTurn(first ? firstTurnText(goal) : continuationText(goal));
    } finally {
      this.#watch = null;
    }
    const facts = await watch.facts();
    facts.todosCompleted = Math.max(0, completedCount(this.#host.todos()) - before);
    const counted: GoalSnapshot = {
      ...goal,
      turns: goal.turns + 1,
      tokens: goal.tokens + facts.tokens,
      noProgress: madeProgress(facts, goal.category === "research") ? 0 : goal.noProgress + 1,
    };
    await this.#set(this.#decide(withToolChanges(counted, state), outcome, facts));
  }

  /** What the turn leaves the goal as: the first cause that applies, in order of authority. */
  #decide(goal: GoalSnapshot, outcome: TurnOutcome, facts: TurnFacts): GoalSnapshot {
    const reported = this.#host.state?.goal;
    const stop = (cause: StopCause, detail?: string) => halted(goal, cause, detail);
    if (this.#request === "stopped") return stop("stopped");
    if (reported?.status === "complete") return { ...goal, status: "complete" };
    if (reported?.status === "blocked") return stop("blocked", reported.blockedReason);
    if (reported?.status === "paused") return stop("paused", "the model paused it");
    if (outcome.error?.code.startsWith("turn.") && outcome.error.code !== "turn.max_steps") {
      return stop(outcome.error.code === "turn.interrupted" ? "interrupted" : "error", outcome.error.message);
    }
    if (outcome.error?.code === "provider.balance") return stop("balance", outcome.error.message);
    // Verified delivery refused the turn's answer: the goal goes on (and counts what the host saw).
    const unverified = outcome.error?.code === "delivery.unverified";
    if (outcome.subtype === "error_during_execution" && !unverified) {
      return stop("error", outcome.error?.message);
    }
    if (facts.needsUser) return stop("needs_user");
    if (this.#request === "paused") return stop("paused");
    if (goal.noProgress >= goal.noProgressLimit) return stop("no_progress");
    if (goal.turns >= goal.budget) return stop("budget");
    return goal;
  }

  async #set(goal: GoalSnapshot): Promise<void> {
    this.#goal = goal;
    await writeGoalFile(this.#host.sessionFile, goal);
    this.#host.emit({ type: "goal_updated", goal: structuredClone(goal) });
  }

  /** A stopped goal is gone: its sidecar is removed; the faces still hear how it ended. */
  async #end(goal: GoalSnapshot, announce = true): Promise<void> {
    this.#goal = null;
    await writeGoalFile(this.#host.sessionFile, null);
    if (announce) this.#host.emit({ type: "goal_updated", goal: structuredClone(goal) });
  }
}

/** The objective, revision and round limit `update_goal` changed this turn (the model may only lower the budget). */
function withToolChanges(goal: GoalSnapshot, state: SessionToolState | undefined): GoalSnapshot {
  const reported = state?.goal;
  if (!reported || reported.id !== goal.id) return goal;
  const next = { ...goal, objective: reported.objective, revision: reported.revision };
  const limit = reported.maxGoalRounds;
  if (typeof limit === "number" && limit < next.budget) next.budget = Math.max(limit, next.turns);
  return next;
}
