/**
 * @module
 * Every refusal the server sends: a status and `{ code, message }`, the code dotted and stable.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorFields } from "../../lib/errors.ts";

export function refuse(c: Context, status: ContentfulStatusCode, code: string, message: string): Response {
  return c.json({ code, message }, status);
}

/** Statuses for the error codes a request can meet; anything else is the server's fault. */
const STATUS_BY_CODE: Record<string, ContentfulStatusCode> = {
  "session.busy": 409,
  "session.locked": 409,
  "session.not_found": 404,
  "session.none": 404,
  "usage.bad_value": 400,
  "config.unknown_model": 400,
};

/** A thrown error as its `{ code, message, hint }` with the status its code calls for. */
export function refuseError(c: Context, error: unknown): Response {
  const fields = errorFields(error);
  const status = STATUS_BY_CODE[fields.code] ?? (fields.code.startsWith("config.") ? 400 : 500);
  return c.json(fields, status);
}
