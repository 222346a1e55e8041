/**
 * @module
 * The typed provider failure. Callers branch on `code` and `retryable`, never on the message.
 */
import { ReasonixError, type ReasonixErrorOptions } from "../lib/errors.ts";

export interface ProviderErrorOptions extends ReasonixErrorOptions {
  status?: number;
  retryable?: boolean;
  requestId?: string;
  attempts?: number;
}

/**
 * Codes: `provider.auth` (401), `provider.balance` (402), `provider.bad_request` (400/422 and other 4xx),
 * `provider.rate_limited` (429), `provider.server` (5xx), `provider.network`, `provider.timeout`
 * (no headers, first byte or next chunk in time), `provider.truncated`,
 * `provider.bad_response` (unparsable stream data), `provider.aborted`, `provider.unknown_kind`.
 */
export class ProviderError extends ReasonixError {
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly requestId: string | undefined;
  readonly attempts: number;

  constructor(code: string, message: string, options: ProviderErrorOptions = {}) {
    super(code, message, options);
    this.name = "ProviderError";
    this.status = options.status;
    this.retryable = options.retryable ?? false;
    this.requestId = options.requestId;
    this.attempts = options.attempts ?? 0;
  }
}
