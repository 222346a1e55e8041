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
import { onStopSignals } from "../../sandbox/stop_signals.ts";

/**
 * Installs the handlers; `stop` gets the first signal. A write to or read from a terminal that hung up
 * fails (EPIPE, EIO) before or after the SIGHUP arrives: that failure stops the TUI as SIGHUP does,
 * instead of ending the process uncaught with the session left open. Returns the function that removes them.
 */
export function onTuiStopSignals(stop: (signal: StopSignal) => void): () => void {
  // Raw mode makes Ctrl+C a key on Windows too: the TUI listens to no signal there.
  const signals = Deno.build.os === "windows" ? null : onStopSignals(stop);
  let lostFirst = false;
  const lost = () => {
    if (lostFirst || signals?.stopping()) return;
    lostFirst = true;
    signals?.mark();
    stop("SIGHUP");
  };
  const streams = [process.stdin, process.stdout, process.stderr];
  for (const stream of streams) stream.on("error", lost);
  return () => {
    streams.forEach((stream) => stream.off("error", lost));
    signals?.();
  };
}

/** Waits (at most `limitMs`) until `busy` turns false: the interrupted turn has written its last entry. */
export async function settle(busy: () => boolean, limitMs = 5000): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (busy() && performance.now() < deadline) await new Promise((done) => setTimeout(done, 20));
}
