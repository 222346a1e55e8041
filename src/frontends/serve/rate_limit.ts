/**
 * @module
 * Failed logins per client: after `limit` failures within `windowMs` the client is refused until the
 * oldest failure leaves the window, so guessing a token or a password is slow.
 */

export class LoginLimiter {
  #failures = new Map<string, number[]>();
  #limit: number;
  #windowMs: number;
  #now: () => number;

  constructor(options: { limit?: number; windowMs?: number; now?: () => number } = {}) {
    this.#limit = options.limit ?? 5;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#now = options.now ?? (() => Date.now());
  }

  /** Seconds until `client` may try again; 0 when it may now. */
  retryAfter(client: string): number {
    const recent = this.#recent(client);
    if (recent.length < this.#limit) return 0;
    return Math.max(1, Math.ceil((recent[0]! + this.#windowMs - this.#now()) / 1000));
  }

  fail(client: string): void {
    this.#failures.set(client, [...this.#recent(client), this.#now()]);
  }

  succeed(client: string): void {
    this.#failures.delete(client);
  }

  #recent(client: string): number[] {
    const cutoff = this.#now() - this.#windowMs;
    const recent = (this.#failures.get(client) ?? []).filter((at) => at > cutoff);
    if (recent.length === 0) this.#failures.delete(client);
    else this.#failures.set(client, recent);
    return recent;
  }
}
