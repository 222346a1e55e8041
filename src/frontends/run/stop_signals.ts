/**
 * @module
 * `reasonix run` on a stop signal: the first SIGINT, SIGTERM or SIGHUP ends the turn as Ctrl+C does (a
 * result, a resumable session, every child reaped, exit 128 + the signal's number through main.ts). A
 * second one, or SIGQUIT, kills every child process at once and exits without waiting.
 */
import type { StopSignal } from "../../control/mod.ts";
import { killChildrenAndExit } from "../../sandbox/children.ts";

const STOP_SIGNALS: readonly StopSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];
const SIGNAL_NUMBERS: Record<StopSignal | "SIGQUIT", number> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGPIPE: 13,
  SIGTERM: 15,
};
/**
 * A repeat sooner than this is the first signal arriving twice, not a second request: a signal sent to
 * the whole process group reaches this process directly and again through the fence's parent.
 */
export const REPEAT_WINDOW_MS = 500;

/** Installs the handlers; `stop` gets the first signal. Returns the function that removes them. */
export function installStopSignals(stop: (signal: StopSignal) => void): () => void {
  // Windows delivers only Ctrl+C (as SIGINT) to a console program.
  const windows = Deno.build.os === "windows";
  let firstAt: number | null = null;
  const onSignal = (signal: StopSignal) => () => {
    const now = performance.now();
    if (firstAt === null) {
      firstAt = now;
      stop(signal);
    } else if (now - firstAt >= REPEAT_WINDOW_MS) {
      killChildrenAndExit(128 + SIGNAL_NUMBERS[signal]);
    }
  };
  const stops: readonly StopSignal[] = windows ? ["SIGINT"] : STOP_SIGNALS;
  const listeners: [Deno.Signal, () => void][] = stops.map((signal) => [signal, onSignal(signal)]);
  if (!windows) listeners.push(["SIGQUIT", () => killChildrenAndExit(128 + SIGNAL_NUMBERS.SIGQUIT)]);
  for (const [signal, listener] of listeners) Deno.addSignalListener(signal, listener);
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}
