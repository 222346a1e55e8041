/**
 * @module
 * Turns any failure into one actionable sentence with a code, keeping credentials out of it.
 */
import { errorFields } from "../lib/errors.ts";
import type { ErrorInfo } from "./events.ts";

export function explainError(error: unknown, options: { interrupted?: boolean } = {}): ErrorInfo {
  if (options.interrupted) {
    return { code: "turn.interrupted", message: "Interrupted by the user" };
  }
  return errorFields(error);
}
