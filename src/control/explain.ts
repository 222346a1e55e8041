/**
 * @module
 * Turns any failure into one actionable sentence with a code, keeping credentials out of it.
 */
import { errorFields } from "../lib/errors.ts";
import type { ErrorInfo } from "./events.ts";

/**
 * The signals that stop a turn as Ctrl+C does; each keeps its own code (and exit status, main.ts).
 * SIGPIPE stands for a headless run whose reader left (`reasonix run … | head -1`): Deno ignores the signal
 * itself, so the face sends it when a write finds the pipe closed.
 */
export type StopSignal = "SIGINT" | "SIGTERM" | "SIGHUP" | "SIGPIPE";

const STOPPED: Record<StopSignal, ErrorInfo> = {
  SIGINT: { code: "turn.interrupted", message: "Interrupted by the user" },
  SIGTERM: { code: "turn.terminated", message: "Interrupted by SIGTERM" },
  SIGHUP: { code: "turn.hangup", message: "Interrupted by SIGHUP (the terminal went away)" },
  SIGPIPE: { code: "output.broken_pipe", message: "Stopped: the reader of the output went away" },
};

/** How a turn stopped by `signal` is reported. */
export function stopError(signal: StopSignal): ErrorInfo {
  return { ...STOPPED[signal] };
}

/** The reason a turn's abort signal carries when a stop signal ended it; `explainError` reads it back. */
export class StopRequest extends DOMException {
  readonly signal: StopSignal;

  constructor(signal: StopSignal) {
    super(STOPPED[signal].message, "AbortError");
    this.signal = signal;
  }
}

/** `interrupted`: the turn's abort signal fired; `reason` is what it carried (a `StopRequest` or not). */
export function explainError(
  error: unknown,
  options: { interrupted?: boolean; reason?: unknown } = {},
): ErrorInfo {
  if (options.interrupted) {
    return stopError(options.reason instanceof StopRequest ? options.reason.signal : "SIGINT");
  }
  return errorFields(error);
}
