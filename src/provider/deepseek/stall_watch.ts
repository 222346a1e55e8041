/**
 * @module
 * One attempt's stall watch: a deadline for the response headers, one for the first body byte and one
 * between body chunks. When a deadline passes, the attempt's signal aborts and `timedOut` says which.
 */
import { ProviderError } from "../errors.ts";

export interface ProviderTimeouts {
  /** Until the server answers with its status and headers. */
  connectMs: number;
  /** From the headers to the first body byte: a keep-alive comment or a role frame counts. */
  firstByteMs: number;
  /** Between two body chunks. */
  idleMs: number;
}

export const DEFAULT_TIMEOUTS: ProviderTimeouts = { connectMs: 15_000, firstByteMs: 120_000, idleMs: 90_000 };

type Phase = "connect" | "first_byte" | "idle";

export class StallWatch {
  readonly signal: AbortSignal;
  #controller = new AbortController();
  #timeouts: ProviderTimeouts;
  #host: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timedOut: ProviderError | undefined;
  #phase: Phase = "connect";

  constructor(parent: AbortSignal, timeouts: ProviderTimeouts, host: string) {
    this.#timeouts = timeouts;
    this.#host = host;
    this.signal = AbortSignal.any([parent, this.#controller.signal]);
    this.#arm("connect");
  }

  /** The timeout that ended the attempt, if one did. */
  get timedOut(): ProviderError | undefined {
    return this.#timedOut;
  }

  /** The status and headers arrived: now wait for the first body byte. */
  headersArrived(): void {
    this.#arm("first_byte");
  }

  /** Passes the body through, restarting the idle deadline on every chunk. */
  watch(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const bytesArrived = () => this.#arm("idle");
    return body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          bytesArrived();
          controller.enqueue(chunk);
        },
      }),
      { signal: this.signal },
    );
  }

  dispose(): void {
    clearTimeout(this.#timer);
  }

  #arm(phase: Phase): void {
    this.#phase = phase;
    clearTimeout(this.#timer);
    const ms = this.#limit(phase);
    this.#timer = setTimeout(() => this.#expire(ms), ms);
  }

  #limit(phase: Phase): number {
    if (phase === "connect") return this.#timeouts.connectMs;
    return phase === "first_byte" ? this.#timeouts.firstByteMs : this.#timeouts.idleMs;
  }

  #expire(ms: number): void {
    const seconds = formatSeconds(ms);
    const reason = {
      connect: `no response within ${seconds}`,
      first_byte: `no data within ${seconds} of the response headers`,
      idle: `the reply stream stalled for ${seconds}`,
    }[this.#phase];
    this.#timedOut = new ProviderError(
      "provider.timeout",
      `Cannot get a reply from ${this.#host}: ${reason}`,
      {
        retryable: true,
        hint: "If the provider is slow but alive, raise the [network] timeouts (see docs/CONFIG.md)",
      },
    );
    this.#controller.abort(this.#timedOut);
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
