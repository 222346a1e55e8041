/**
 * @module
 * Verified delivery, a host policy over the turn loop (`[agent] delivery = "verify"`, `/delivery`): no
 * change before a todo_write acceptance list exists; after the last change, a bash command that checks
 * the work (verifier.ts) exiting 0 and a complete_step citing it before a final answer is accepted; no
 * "done" without an observed change when the person asked for one. Refusals ride the tail as tool
 * errors and host notes (never the prefix), each is a warning every face shows and the session log
 * keeps, and a turn refuses at most MAX_DELIVERY_REFUSALS answers before it ends as `delivery.unverified`.
 */
import type { TurnLoopOptions, TurnLoopResult } from "../../agent/loop.ts";
import type { DeliveryMode } from "../../config/types.ts";
import type { ToolContext } from "../../tool/tool.ts";
import type { ReasonixEvent } from "../events.ts";
import type { TurnOutcome } from "../turn_outcome.ts";
import { deliveryGate } from "./gate.ts";
import {
  missingDelivery,
  noListWarning,
  refusalWarning,
  UNVERIFIED_CODE,
  unverifiedMessage,
} from "./notes.ts";
import { asksForChange } from "./task_kind.ts";
import { TurnWatch, type WatchState } from "./watch.ts";

export type { DeliveryMode };

/** Final answers refused per turn; the next unverified one ends the turn as `delivery.unverified`. */
export const MAX_DELIVERY_REFUSALS = 2;

export interface DeliveryStatus {
  mode: DeliveryMode;
  /** The current (or last) turn's facts; null before a turn ran with delivery on. */
  turn: WatchState | null;
}

/** What faces, slash commands and goal mode use: `setMode("verify")` turns the gates on from the next turn. */
export interface DeliveryPort {
  readonly mode: DeliveryMode;
  setMode(mode: DeliveryMode): void;
  status(): DeliveryStatus;
}

/** What the gates read from the current session: its todo list, workspace and `[agent] verify_commands`. */
export type DeliveryContext = Pick<ToolContext, "state" | "workspace"> & {
  verifyCommands?: readonly string[];
};

export class Delivery implements DeliveryPort {
  #mode: DeliveryMode;
  #context: () => DeliveryContext;
  #watch: TurnWatch | null = null;
  #unverified: string | null = null;

  constructor(mode: DeliveryMode, context: () => DeliveryContext) {
    this.#mode = mode;
    this.#context = context;
  }

  get mode(): DeliveryMode {
    return this.#mode;
  }

  setMode(mode: DeliveryMode): void {
    this.#mode = mode;
  }

  status(): DeliveryStatus {
    return { mode: this.#mode, turn: this.#watch?.state() ?? null };
  }

  /** The turn's loop options with the gates on; the same options when delivery is off. */
  wrap(options: TurnLoopOptions, text: string): TurnLoopOptions {
    this.#unverified = null;
    if (this.#mode !== "verify") return options;
    const watch = this.#watch = new TurnWatch(asksForChange(text));
    const emit = (event: ReasonixEvent) => {
      watch.observe(event);
      options.emit(event);
    };
    const warn = (message: string) => emit({ type: "warning", message });
    const gate = deliveryGate(options.gate, {
      active: () => this.#mode === "verify",
      hasList: () => (this.#context().state?.todos.length ?? 0) > 0,
      workspace: () => this.#context().workspace,
      verifyCommands: () => this.#context().verifyCommands ?? [],
      refused: (tool) => warn(noListWarning(tool)),
      noted: (callId, note) => watch.note(callId, note),
    });
    return { ...options, emit, gate, reviewAnswer: (answer) => this.#review(watch, answer, warn) };
  }

  /** What the turn reports: a refused-out answer stands, but the turn ends as `delivery.unverified`. */
  outcome(done: TurnLoopResult): TurnOutcome {
    if (done.subtype !== "success") {
      return {
        subtype: done.subtype,
        result: done.result,
        error: { code: "turn.max_steps", message: done.result },
      };
    }
    if (this.#unverified === null) return { subtype: "success", result: done.result };
    const error = { code: UNVERIFIED_CODE, message: this.#unverified };
    return { subtype: "error_during_execution", result: done.result, error };
  }

  #review(watch: TurnWatch, answer: string, warn: (message: string) => void): string | null {
    if (this.#mode !== "verify") return null;
    const missing = missingDelivery(watch.state(), answer);
    if (missing === null) return null;
    if (watch.refusals >= MAX_DELIVERY_REFUSALS) {
      this.#unverified = unverifiedMessage(missing);
      warn(this.#unverified);
      return null;
    }
    watch.refusals++;
    warn(refusalWarning(missing, watch.refusals, MAX_DELIVERY_REFUSALS));
    return missing.note;
  }
}
