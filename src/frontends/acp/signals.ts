/**
 * @module
 * `reasonix acp` on a stop signal (the editor quitting): the first SIGINT, SIGTERM or SIGHUP closes the
 * connection, which interrupts running turns and closes every session; main.ts exits 128 + the signal's
 * number. A second one (or SIGQUIT) kills every child process and exits at once.
 */
import type { StopSignal } from "../../control/mod.ts";
import { killChildrenAndExit } from "../../sandbox/children.ts";

const NUMBERS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };
/** A signal sent to the process group reaches the fenced child twice (directly and relayed): one stop. */
const REPEAT_WINDOW_MS = 500;

export function onStopSignals(stop: (signal: StopSignal) => void): () => void {
  const windows = Deno.build.os === "windows";
  let firstAt: number | null = null;
  const listener = (signal: Deno.Signal) => () => {
    const status = 128 + NUMBERS[signal]!;
    if (signal === "SIGQUIT") killChildrenAndExit(status);
    if (firstAt === null) {
      firstAt = performance.now();
      stop(signal as StopSignal);
    } else if (performance.now() - firstAt >= REPEAT_WINDOW_MS) killChildrenAndExit(status);
  };
  const signals: Deno.Signal[] = windows ? ["SIGINT"] : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
  const listeners = signals.map((signal) => [signal, listener(signal)] as const);
  for (const [signal, handler] of listeners) Deno.addSignalListener(signal, handler);
  return () => {
    for (const [signal, handler] of listeners) Deno.removeSignalListener(signal, handler);
  };
}
