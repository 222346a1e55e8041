/**
 * @module
 * The one error base: a dotted, lower-case `code` that callers branch on, and an optional `hint`
 * that tells a person what to do next. Messages follow std style (sentence case, no final period).
 */
import { stripControls } from "./terminal_text.ts";

export interface ReasonixErrorOptions {
  hint?: string;
  cause?: unknown;
}

export class ReasonixError extends Error {
  readonly code: string;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: ReasonixErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ReasonixError";
    this.code = code;
    this.hint = options.hint;
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The reader of our stdout went away (`reasonix … | head -1`): nothing is wrong, there is just no one to tell. */
export function isBrokenPipe(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e instanceof Deno.errors.BrokenPipe || (e as { code?: unknown }).code === "EPIPE") return true;
  }
  return false;
}

/** What a failure tells a person or a script: the shape of `error` in every JSON result. */
export interface ErrorFields {
  code: string;
  message: string;
  hint?: string;
}

/** Any thrown value as code, message and hint; what is not a ReasonixError is an internal failure. */
export function errorFields(error: unknown): ErrorFields {
  if (error instanceof ReasonixError) {
    return { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) };
  }
  return { code: "internal", message: `Unexpected failure: ${errorMessage(error)}` };
}

/** The `error: …` and `hint: …` lines, with any terminal controls of the message removed. */
export function errorText(fields: { message: string; hint?: string | undefined }): string {
  const hint = fields.hint ? `hint: ${stripControls(fields.hint)}\n` : "";
  return `error: ${stripControls(fields.message)}\n${hint}`;
}
