/**
 * @module
 * `reasonix serve` on a stop signal: the first SIGINT, SIGTERM or SIGHUP stops the server (running turns
 * are interrupted and recorded, sessions closed; cli.ts exits 128 + the signal's number). A second one at
 * least 0.5 s later (one sent to the process group reaches the fenced child twice), or SIGQUIT, kills every
 * child process and exits at once.
 */
import type { StopSignal } from "../../control/mod.ts";
import { killChildrenAndExit } from "../../sandbox/children.ts";

const NUMBERS: Readonly<Record<string, number>> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGTERM: 15 };
const REPEAT_WINDOW_MS = 500;

/** Resolves `stopped` with the first stop signal; the returned function removes the listeners. */
export function stopSignals(): { stopped: Promise<StopSignal>; remove: () => void } {
  const { promise: stopped, resolve } = Promise.withResolvers<StopSignal>();
  let firstAt: number | null = null;
  const listener = (signal: Deno.Signal) => () => {
    const status = 128 + NUMBERS[signal]!;
    if (signal === "SIGQUIT") killChildrenAndExit(status);
    if (firstAt === null) {
      firstAt = performance.now();
      resolve(signal as StopSignal);
    } else if (performance.now() - firstAt >= REPEAT_WINDOW_MS) killChildrenAndExit(status);
  };
  const names: Deno.Signal[] = Deno.build.os === "windows"
    ? ["SIGINT"]
    : ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"];
  const listeners = names.map((signal) => [signal, listener(signal)] as const);
  for (const [signal, handler] of listeners) Deno.addSignalListener(signal, handler);
  return {
    stopped,
    remove: () => listeners.forEach(([signal, handler]) => Deno.removeSignalListener(signal, handler)),
  };
}
