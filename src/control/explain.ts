/**
 * @module
 * Turns any failure into one actionable sentence with a code, keeping credentials out of it.
 */
import { ReasonixError } from "../lib/errors.ts";
import type { ErrorInfo } from "./events.ts";

export function explainError(error: unknown, options: { interrupted?: boolean } = {}): ErrorInfo {
  if (options.interrupted) {
    return { code: "turn.interrupted", message: "Interrupted by the user" };
  }
  if (error instanceof ReasonixError) {
    return { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: "internal", message: `Unexpected failure: ${message}` };
}
