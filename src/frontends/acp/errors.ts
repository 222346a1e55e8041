/**
 * @module
 * Reasonix failures as JSON-RPC errors: the message for the person, `data.code` (and `data.hint`) for
 * an editor that branches on it.
 */
import { RequestError } from "@agentclientprotocol/sdk";
import type { ErrorInfo } from "../../control/mod.ts";
import { ReasonixError } from "../../lib/errors.ts";

const INTERNAL = -32603;
const INVALID_PARAMS = -32602;
/** ACP's "resource not found", which clients treat as already gone on close and delete. */
const NOT_FOUND = -32002;

export function requestError(error: unknown): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof ReasonixError) return withCode(error.code, error.message, error.hint);
  if (isInfo(error)) return withCode(error.code, error.message, error.hint);
  return new RequestError(INTERNAL, error instanceof Error ? error.message : String(error));
}

function withCode(code: string, message: string, hint?: string): RequestError {
  const status = code === "session.not_found"
    ? NOT_FOUND
    : code.startsWith("usage.")
    ? INVALID_PARAMS
    : INTERNAL;
  return new RequestError(status, message, { code, ...(hint ? { hint } : {}) });
}

function isInfo(value: unknown): value is ErrorInfo {
  return typeof value === "object" && value !== null && typeof (value as ErrorInfo).code === "string" &&
    typeof (value as ErrorInfo).message === "string";
}
