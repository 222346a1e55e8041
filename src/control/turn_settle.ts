/**
 * @module
 * Stopping a face (a signal, an editor quitting) while a turn runs: the turn is interrupted as a cancel
 * interrupts it, and the face waits, boundedly, for the turn to record its end (the turn's end, the
 * results of its interrupted tool calls) before it closes the session.
 */
import type { StopSignal } from "./explain.ts";

/** How long a stop waits for an interrupted turn to record its end before closing anyway. */
export const SETTLE_MS = 10_000;

export interface Interruptible {
  readonly busy: boolean;
  interrupt(signal?: StopSignal): void;
}

/** Interrupts the running turn (and withdraws waiting cards), and waits until it ended or `deadline` (performance.now()) passed. */
export async function interruptAndSettle(
  controller: Interruptible,
  signal: StopSignal,
  deadline = performance.now() + SETTLE_MS,
): Promise<void> {
  controller.interrupt(signal);
  while (controller.busy && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
