/**
 * @module
 * How every long-running face stops on a signal. The first SIGINT, SIGTERM or SIGHUP goes to `stop` (the
 * face ends its turns in order and exits 128 + the signal's number). A second one at least the repeat
 * window later, or SIGQUIT, kills every child process and exits at once.
 */
import { killChildrenAndExit } from "./children.ts";

/** The signals that stop a face in order (SIGPIPE: its output went away). */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGPIPE";

const NUMBERS: Readonly<Record<StopSignal | "SIGQUIT", number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGPIPE: 13,
  SIGTERM: 15,
};
/**
 * A repeat sooner than this is the first signal arriving twice, not a second request: a signal sent to
 * the whole process group reaches the fenced child directly and again through the fence's parent.
 */
const REPEAT_WINDOW_MS = 500;

/** Removes the handlers when called. */
export interface StopSignalsOff {
  (): void;
  /** Counts a stop that came another way (a hung-up terminal), so a later signal is the second one. */
  mark(): void;
  /** Whether a stop signal (or a marked stop) already came. */
  stopping(): boolean;
}

/** Installs the handlers. Windows delivers only Ctrl+C (as SIGINT) to a console program. */
export function onStopSignals(stop: (signal: StopSignal) => void): StopSignalsOff {
  let firstAt: number | null = null;
  const listener = (signal: StopSignal | "SIGQUIT") => () => {
    const status = 128 + NUMBERS[signal];
    if (signal === "SIGQUIT") killChildrenAndExit(status);
    if (firstAt === null) {
      firstAt = performance.now();
      stop(signal as StopSignal);
    } else if (performance.now() - firstAt >= REPEAT_WINDOW_MS) killChildrenAndExit(status);
  };
  const names: (StopSignal | "SIGQUIT")[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
  const listeners = names.map((signal) => [signal, listener(signal)] as const);
  for (const [signal, handler] of listeners) Deno.addSignalListener(signal, handler);
  const off = (() => {
    for (const [signal, handler] of listeners) Deno.removeSignalListener(signal, handler);
  }) as StopSignalsOff;
  off.mark = () => void (firstAt ??= performance.now());
  off.stopping = () => firstAt !== null;
  return off;
}
