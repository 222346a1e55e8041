/**
 * @module
 * The plan desk: plan mode's state in a session. It switches the approval desk's mode (remembering the
 * mode plan mode replaced), tells the model on the tail of its next turn (never in the system prompt),
 * and holds the one plan revision waiting for a person. An answer names the revision it saw, so a card
 * left open on an older revision cannot approve a newer plan; an approval restores the earlier mode.
 */
import type { ReasonixEvent } from "../agent/events.ts";
import type { PermissionMode } from "../config/types.ts";
import { t } from "../lib/i18n/mod.ts";
import type { PlanDecision, PlanOutcome, PlanReviewer, PlanStep, ProposedPlan } from "../tool/plan.ts";
import type { SessionRecord } from "../session/store.ts";
import type { Approvals } from "./approvals.ts";

/** A revise answer longer than this is cut: it is the person's note, not a document. */
const MAX_FEEDBACK_CHARS = 4000;

export const PLAN_ON_NOTE = "Plan mode is on: the host refuses every call that would change files or state " +
  "(file writes and edits, bash that may write, MCP tools not marked read-only). Explore with reading tools, " +
  'then propose the work with use_capability (action "call", capability_id "tool:submit_plan", arguments ' +
  "{summary, steps}). The user approves, revises or rejects it; nothing changes before an approval.";

export function planOffNote(mode: string): string {
  return `Plan mode is off: the permission mode is "${mode}" again, and changes run under it.`;
}

/** What a face reaches: the waiting plan, and the answer bound to the revision it showed. */
export type PlanPort = Pick<PlanDesk, "pending" | "answer" | "mode" | "previousMode">;

export interface PlanDeskHooks {
  emit(event: ReasonixEvent): void;
  canAnswer(): boolean;
  /** The notes waiting for the next user message (the Controller's `turnNotes`). */
  notes: { get(): readonly string[]; set(notes: string[]): void };
}

interface Waiting {
  plan: ProposedPlan;
  settle(outcome: PlanOutcome): void;
}

export class PlanDesk implements PlanReviewer {
  #approvals: Approvals;
  #interactive: boolean;
  #previous: PermissionMode = "ask";
  /** The mode yolo was switched on from in this session (unset when the session started in yolo). */
  #beforeYolo: PermissionMode | undefined;
  #revision: number;
  #waiting: Waiting | null = null;
  #hooks: PlanDeskHooks | null = null;
  /** What the model was last told (plan mode on or off), and the note not yet sent. */
  #believed = false;
  #queued: { text: string; on: boolean } | null = null;

  /** `revisions`: plans proposed earlier in this session (a resume numbers on from there). */
  constructor(options: { approvals: Approvals; interactive: boolean; revisions?: number }) {
    this.#approvals = options.approvals;
    this.#interactive = options.interactive;
    this.#revision = options.revisions ?? 0;
  }

  attach(hooks: PlanDeskHooks): void {
    this.#hooks = hooks;
    if (this.#approvals.mode === "plan") this.#tell(true);
  }

  get mode(): PermissionMode {
    return this.#approvals.mode;
  }

  /** The mode an approval returns to. */
  get previousMode(): PermissionMode {
    return this.#previous;
  }

  /** A session switched to in plan mode keeps the mode an approval returns to. */
  inherit(previous: PermissionMode | undefined): void {
    if (previous && previous !== "plan") this.#previous = previous;
  }

  setMode(mode: PermissionMode): void {
    const from = this.#approvals.mode;
    if (from === mode) return;
    // An approval never lands in a yolo the session only passed through (Shift+Tab cycles ask → auto → yolo
    // → plan): it returns to the mode yolo was switched on from. A session started in yolo keeps it.
    if (mode === "plan") this.#previous = from === "yolo" ? (this.#beforeYolo ?? "yolo") : from;
    if (mode === "yolo" && from !== "plan") this.#beforeYolo = from;
    this.#approvals.mode = mode;
    if (mode !== "plan" && from !== "plan") return;
    this.#tell(mode === "plan");
    const message = mode === "plan" ? t("plan.mode_on") : t("plan.mode_off", { mode });
    this.#hooks?.emit({ type: "notice", message });
  }

  pending(): ProposedPlan | null {
    return this.#waiting ? structuredClone(this.#waiting.plan) : null;
  }

  review(input: { summary: string; steps: PlanStep[] }, signal: AbortSignal): Promise<PlanOutcome> {
    if (this.#approvals.mode !== "plan") return Promise.resolve({ kind: "not_plan_mode", mode: this.mode });
    if (signal.aborted) return Promise.resolve({ kind: "cancelled" });
    const plan: ProposedPlan = { revision: ++this.#revision, ...structuredClone(input) };
    const older = this.#waiting;
    if (older) this.#settle(older, { kind: "superseded", revision: older.plan.revision, by: plan.revision });
    if (!this.#interactive || !this.#hooks?.canAnswer()) {
      this.#hooks?.emit({ type: "plan_proposed", plan });
      this.#resolved(plan, { kind: "unanswered", revision: plan.revision });
      return Promise.resolve({ kind: "unanswered", revision: plan.revision });
    }
    const answered = new Promise<PlanOutcome>((resolve) => {
      const waiting: Waiting = {
        plan,
        settle: (outcome) => {
          signal.removeEventListener("abort", onAbort);
          resolve(outcome);
        },
      };
      const onAbort = () => this.#settle(waiting, { kind: "cancelled" });
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiting = waiting;
    });
    // Announced once it waits, so a face may answer from inside the event.
    this.#hooks.emit({ type: "plan_proposed", plan });
    return answered;
  }

  /**
   * Answers the waiting plan; false when `revision` is not the one waiting (a stale card) or a revise
   * carries no feedback. An approval leaves plan mode for the mode it replaced.
   */
  answer(revision: number, decision: PlanDecision, feedback?: string): boolean {
    const waiting = this.#waiting;
    if (!waiting || waiting.plan.revision !== revision) return false;
    const note = feedback?.trim().slice(0, MAX_FEEDBACK_CHARS);
    if (decision === "revise") {
      if (!note) return false;
      this.#settle(waiting, { kind: "revise", revision, feedback: note });
      return true;
    }
    if (decision === "reject") {
      this.#settle(waiting, { kind: "rejected", revision, ...(note ? { reason: note } : {}) });
      return true;
    }
    const mode = this.#approvals.mode === "plan" ? this.#previous : this.#approvals.mode;
    this.#approvals.mode = mode;
    this.#told(false);
    this.#settle(waiting, { kind: "approved", revision, mode });
    return true;
  }

  cancelAll(): void {
    if (this.#waiting) this.#settle(this.#waiting, { kind: "cancelled" });
  }

  #settle(waiting: Waiting, outcome: PlanOutcome): void {
    if (this.#waiting === waiting) this.#waiting = null;
    waiting.settle(outcome);
    this.#resolved(waiting.plan, outcome);
  }

  #resolved(plan: ProposedPlan, outcome: PlanOutcome): void {
    if (outcome.kind === "not_plan_mode") return;
    this.#hooks?.emit({
      type: "plan_resolved",
      plan,
      outcome: outcome.kind,
      ...(outcome.kind === "revise" ? { feedback: outcome.feedback } : {}),
      ...(outcome.kind === "rejected" && outcome.reason ? { feedback: outcome.reason } : {}),
      ...(outcome.kind === "approved" ? { mode: outcome.mode } : {}),
    });
  }

  /** Queues the note for the model; a switch undone before the model heard of it is dropped instead. */
  #tell(on: boolean): void {
    this.#dropQueued();
    if (this.#believed === on || !this.#hooks) return;
    const text = on ? PLAN_ON_NOTE : planOffNote(this.mode);
    this.#queued = { text, on };
    this.#hooks.notes.set([...this.#hooks.notes.get(), text]);
  }

  /** The model learned the state another way (the approved plan's tool result). */
  #told(on: boolean): void {
    this.#dropQueued();
    this.#believed = on;
  }

  #dropQueued(): void {
    const queued = this.#queued;
    if (!queued || !this.#hooks) return;
    this.#queued = null;
    const notes = this.#hooks.notes.get();
    if (notes.includes(queued.text)) this.#hooks.notes.set(notes.filter((note) => note !== queued.text));
    else this.#believed = queued.on;
  }
}

/** The Controller's side of the desk: its event stream (recorded) and the session's turn notes. */
export function planHooks(
  parts: { turnNotes?: string[] },
  emit: (event: ReasonixEvent) => void,
  canAnswer: () => boolean,
): PlanDeskHooks {
  return {
    emit,
    canAnswer,
    notes: { get: () => parts.turnNotes ?? [], set: (notes) => parts.turnNotes = notes },
  };
}

/** How many plans a session proposed before (its log's `plan_proposed` entries). */
export function plansProposed(records: readonly SessionRecord[]): number {
  return records.filter((record) => record.type === "entry" && record.entry.kind === "plan_proposed").length;
}
