/**
 * @module
 * The TUI on a stop signal: SIGTERM (`kill`), SIGHUP (the terminal window closed) or SIGINT sent from
 * outside (the shell's raw mode turns Ctrl+C into a key, never a signal). The first one ends the running
 * turn as Ctrl+C does and unmounts the shell, which gives the terminal back (raw mode off, cursor shown);
 * the session is then closed, every child reaped, and the exit status is 128 + the signal's number. A
 * second one later than the repeat window, or SIGQUIT, kills every child at once and exits.
 */
import process from "node:process";
import type { StopSignal } from "../../control/mod.ts";
import { killChildrenAndExit } from "../../sandbox/children.ts";

const NUMBERS: Readonly<Record<StopSignal | "SIGQUIT", number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGQUIT: 3,
  SIGPIPE: 13,
  SIGTERM: 15,
};
/** A signal sent to the process group reaches the fenced child twice (directly and relayed): one stop. */
const REPEAT_WINDOW_MS = 500;
const SIGNALS: readonly (StopSignal | "SIGQUIT")[] = ["SIGTERM", "SIGHUP", "SIGINT", "SIGQUIT"];

/**
 * Installs the handlers; `stop` gets the first signal. A write to or read from a terminal that hung up
 * fails (EPIPE, EIO) before or after the SIGHUP arrives: that failure stops the TUI as SIGHUP does,
 * instead of ending the process uncaught with the session left open. Returns the function that removes them.
 */
export function onTuiStopSignals(stop: (signal: StopSignal) => void): () => void {
  let firstAt: number | null = null;
  const lost = () => {
    if (firstAt !== null) return;
    firstAt = performance.now();
    stop("SIGHUP");
  };
  const streams = [process.stdin, process.stdout, process.stderr];
  for (const stream of streams) stream.on("error", lost);
  const removeLost = () => streams.forEach((stream) => stream.off("error", lost));
  if (Deno.build.os === "windows") return removeLost;
  const listener = (signal: StopSignal | "SIGQUIT") => () => {
    const status = 128 + NUMBERS[signal];
    if (signal === "SIGQUIT") killChildrenAndExit(status);
    if (firstAt === null) {
      firstAt = performance.now();
      stop(signal);
    } else if (performance.now() - firstAt >= REPEAT_WINDOW_MS) killChildrenAndExit(status);
  };
  const listeners = SIGNALS.map((signal) => [signal, listener(signal)] as const);
  for (const [signal, handler] of listeners) Deno.addSignalListener(signal, handler);
  return () => {
    removeLost();
    for (const [signal, handler] of listeners) Deno.removeSignalListener(signal, handler);
  };
}

/** Waits (at most `limitMs`) until `busy` turns false: the interrupted turn has written its last entry. */
export async function settle(busy: () => boolean, limitMs = 5000): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (busy() && performance.now() < deadline) await new Promise((done) => setTimeout(done, 20));
}
