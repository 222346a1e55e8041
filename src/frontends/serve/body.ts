/**
 * @module
 * Request bodies: JSON checked against a zod schema, or a 400 that says what is wrong.
 */
import type { Context } from "hono";
import type { z } from "zod";
import { refuse } from "./refuse.ts";

/** At most this much JSON per request: prompts are long, documents go through files. */
const MAX_BODY_BYTES = 1_000_000;

export async function readBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T> | Response> {
  const length = Number(c.req.header("content-length") ?? "0");
  if (length > MAX_BODY_BYTES) return refuse(c, 413, "request.too_large", "Refused: the body is too large");
  const text = await c.req.text();
  if (text.length > MAX_BODY_BYTES) {
    return refuse(c, 413, "request.too_large", "Refused: the body is too large");
  }
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch {
    return refuse(c, 400, "request.bad_json", "Cannot parse the body: it is not JSON");
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at "${issue.path.join(".")}"` : "";
  return refuse(c, 400, "request.bad_body", `Cannot read the body${where}: ${issue?.message ?? "invalid"}`);
}

/** The body as text, or null once it passes `max` bytes (read no further: a chunked body may not say its size). */
export async function readLimited(request: Request, max: number): Promise<string | null> {
  if (Number(request.headers.get("content-length") ?? "0") > max) return null;
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.length;
    if (size > max) return null;
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}
