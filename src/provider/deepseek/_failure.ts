/**
 * @module
 * HTTP and transport failures as ProviderErrors, retry delays, and the message after the last try.
 */
import { ProviderError } from "../errors.ts";

const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);
const REQUEST_ID_HEADERS = ["x-request-id", "x-ds-trace-id", "request-id", "x-trace-id"];
const MAX_ERROR_TEXT = 2000;

export interface FailureContext {
  host: string;
  apiKey: string | undefined;
  apiKeyEnv: string;
}

export function scrub(text: string, apiKey: string | undefined): string {
  if (!apiKey) return text;
  return text.split(apiKey).join("***");
}

function providerMessage(bodyText: string): string {
  let message = bodyText.trim();
  try {
    const json = JSON.parse(bodyText);
    const inner = json?.error?.message ?? json?.message ?? json?.error;
    if (typeof inner === "string") message = inner;
  } catch {
    // Not JSON: use the text itself.
  }
  return message.length > MAX_ERROR_TEXT ? `${message.slice(0, MAX_ERROR_TEXT)}...` : message;
}

export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

/** Seconds (integer or decimal) or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const RETRY_AFTER = new WeakMap<ProviderError, number>();

/** The server's Retry-After that came with this failure, in milliseconds. */
export function retryAfterOf(error: ProviderError): number | undefined {
  return RETRY_AFTER.get(error);
}

export function networkError(cause: unknown, host: string): ProviderError {
  const text = causeChainText(cause);
  let reason = "network error";
  if (/refused/i.test(text)) reason = "connection refused";
  else if (/reset/i.test(text)) reason = "connection reset";
  else if (/timed? ?out/i.test(text)) reason = "connection timed out";
  else if (/dns|resolve|lookup/i.test(text)) reason = "host not found";
  return new ProviderError("provider.network", `Cannot reach ${host}: ${reason}`, { retryable: true, cause });
}

/** Deno's fetch says "fetch failed" and keeps the reason (e.g. "Connection refused") in `cause`. */
function causeChainText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined; depth++) {
    parts.push(current instanceof Error ? current.message : String(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(": ");
}

export interface HttpFailure {
  status: number;
  headers: Headers;
  bodyText: string;
}

export function httpError(failure: HttpFailure, context: FailureContext): ProviderError {
  const { status } = failure;
  const detail = scrub(providerMessage(failure.bodyText), context.apiKey);
  const options = {
    status,
    requestId: requestIdOf(failure.headers),
    retryable: RETRYABLE_STATUS.has(status),
  };
  const error = statusError(status, detail, { ...context, options });
  const retryAfter = retryAfterMs(failure.headers);
  if (retryAfter !== undefined) RETRY_AFTER.set(error, retryAfter);
  return error;
}

function statusError(
  status: number,
  detail: string,
  context: FailureContext & { options: { status: number; requestId?: string; retryable: boolean } },
): ProviderError {
  const { options } = context;
  if (status === 401) {
    const message = context.apiKey
      ? `The provider rejected the API key in ${context.apiKeyEnv} (401): check the key`
      : `The provider requires an API key (401): set ${context.apiKeyEnv}`;
    return new ProviderError("provider.auth", message, options);
  }
  if (status === 402) {
    const message = `Cannot get a reply from ${context.host}: insufficient balance (402): top up the account`;
    return new ProviderError("provider.balance", message, options);
  }
  if (status === 429) {
    const message = `Cannot get a reply from ${context.host}: rate limited (429): ${detail}`;
    return new ProviderError("provider.rate_limited", message, {
      ...options,
      hint: "Wait a minute, then retry",
    });
  }
  if (status >= 500) {
    const message = `Cannot get a reply from ${context.host}: server returned ${status}: ${detail}`;
    return new ProviderError("provider.server", message, options);
  }
  const message = `The provider rejected the request (${status}): ${detail || "no reason given"}`;
  return new ProviderError("provider.bad_request", message, options);
}

/** What the final message says went wrong, e.g. `server returned 503`. */
function reasonOf(error: ProviderError): string {
  if (error.code === "provider.truncated") return "the reply stream ended early";
  if (error.code === "provider.network") return error.message.replace(/^Cannot reach \S+: /, "");
  if (error.code === "provider.timeout") return error.message.replace(/^Cannot get a reply from \S+: /, "");
  if (error.status !== undefined) return `server returned ${error.status}`;
  return error.message;
}

/** The error thrown once retrying stops; retryable failures get the "after N attempts" message. */
export function finalError(error: ProviderError, attempts: number, context: FailureContext): ProviderError {
  const options = {
    status: error.status,
    retryable: error.retryable,
    requestId: error.requestId,
    hint: error.hint,
    attempts,
    cause: error,
  };
  if (!error.retryable) return new ProviderError(error.code, error.message, options);
  const plural = attempts === 1 ? "attempt" : "attempts";
  const message = `Cannot get a reply from ${context.host}: ${reasonOf(error)} after ${attempts} ${plural}`;
  return new ProviderError(error.code, scrub(message, context.apiKey), options);
}

export function retryReason(error: ProviderError): string {
  return reasonOf(error);
}

/** `base * 2^retry` with ±20% jitter, or the server's Retry-After; both capped. */
export function retryDelay(
  retry: number,
  options: { baseMs: number; maxMs: number; retryAfterMs?: number; random?: () => number },
): number {
  if (options.retryAfterMs !== undefined) return Math.min(options.retryAfterMs, options.maxMs);
  const jitter = 0.8 + 0.4 * (options.random ?? Math.random)();
  return Math.min(Math.round(options.baseMs * 2 ** retry * jitter), options.maxMs);
}
