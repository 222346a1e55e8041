/**
 * @module
 * The OpenAI-compatible streaming chat-completions client, with DeepSeek's thinking fields, bounded
 * retries with jittered backoff, and prompt abort.
 */
import type { ChatRequest, ChatResult, Provider, StreamOptions } from "../provider.ts";
import { ProviderError } from "../errors.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { buildRequestBody } from "./body.ts";
import { parseSse } from "./sse.ts";
import { StreamAccumulator } from "./_accumulator.ts";
import { DEFAULT_TIMEOUTS, type ProviderTimeouts, StallWatch } from "./stall_watch.ts";
import {
  type FailureContext,
  finalError,
  httpError,
  networkError,
  retryAfterOf,
  retryDelay,
  retryReason,
  scrub,
} from "./_failure.ts";

export interface OpenAIProviderOptions {
  name: string;
  baseUrl: string;
  apiKey?: string;
  /** Only named in messages; the key itself comes in `apiKey`. */
  apiKeyEnv: string;
  reasoningProtocol: "deepseek" | "none";
  maxRetries: number;
  retryBaseMs: number;
  maxRetryDelayMs?: number;
  /** Connect, first-byte and idle deadlines of each attempt; a passed one is a retryable `provider.timeout`. */
  timeouts?: ProviderTimeouts;
  /** Sent as `User-Agent: reasonix/<version>`. */
  version?: string;
  /** A seam for tests and proxies; defaults to the global fetch. */
  fetch?: typeof globalThis.fetch;
}

const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
const MAX_ERROR_BODY_BYTES = 64 * 1024;

type AttemptResult = Omit<ChatResult, "requestBytes">;

export class OpenAIProvider implements Provider {
  readonly name: string;
  #url: string;
  #headers: Record<string, string>;
  #options: OpenAIProviderOptions;
  #context: FailureContext;
  #fetch: typeof globalThis.fetch;

  constructor(options: OpenAIProviderOptions) {
    this.name = options.name;
    this.#options = options;
    const base = options.baseUrl.replace(/\/+$/, "");
    let host: string;
    try {
      const url = new URL(base);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError("not http");
      host = url.host;
    } catch (cause) {
      throw new ReasonixError(
        "config.base_url",
        `Cannot use base URL "${options.baseUrl}" for provider "${options.name}": not an http(s) URL`,
        { cause },
      );
    }
    this.#url = `${base}/chat/completions`;
    this.#context = { host, apiKey: options.apiKey, apiKeyEnv: options.apiKeyEnv };
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#headers = {
      "Content-Type": "application/json",
      "Accept": "text/event-stream",
      "User-Agent": `reasonix/${options.version ?? "dev"}`,
    };
    if (options.apiKey) this.#headers["Authorization"] = `Bearer ${options.apiKey}`;
  }

  async stream(request: ChatRequest, options: StreamOptions): Promise<ChatResult> {
    const body = buildRequestBody(request, {
      reasoningProtocol: this.#options.reasoningProtocol,
      stream: true,
    });
    const requestBytes = new TextEncoder().encode(body).byteLength;
    const maxAttempts = Math.max(0, Math.floor(this.#options.maxRetries)) + 1;
    for (let attempt = 1;; attempt++) {
      if (options.signal.aborted) throw abortedError(attempt - 1);
      let failure: ProviderError;
      try {
        return { ...(await this.#attempt(body, options)), requestBytes };
      } catch (error) {
        if (options.signal.aborted) throw abortedError(attempt, error);
        failure = error instanceof ProviderError ? error : networkError(error, this.#context.host);
      }
      if (!failure.retryable || attempt >= maxAttempts) throw finalError(failure, attempt, this.#context);
      const delayMs = retryDelay(attempt - 1, {
        baseMs: this.#options.retryBaseMs,
        maxMs: this.#options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
        retryAfterMs: retryAfterOf(failure),
      });
      const reason = scrub(retryReason(failure), this.#context.apiKey);
      options.onEvent?.({ type: "retry", attempt: attempt + 1, maxAttempts, delayMs, reason });
      await sleep(delayMs, options.signal).catch((cause) => {
        throw abortedError(attempt, cause);
      });
    }
  }

  async #attempt(body: string, options: StreamOptions): Promise<AttemptResult> {
    const watch = new StallWatch(
      options.signal,
      this.#options.timeouts ?? DEFAULT_TIMEOUTS,
      this.#context.host,
    );
    try {
      return await this.#exchange(body, { ...options, signal: watch.signal }, watch);
    } catch (error) {
      throw watch.timedOut ?? error;
    } finally {
      watch.dispose();
    }
  }

  async #exchange(body: string, options: StreamOptions, watch: StallWatch): Promise<AttemptResult> {
    const response = await this.#fetch(this.#url, {
      method: "POST",
      headers: this.#headers,
      body,
      signal: options.signal,
    });
    watch.headersArrived();
    const replyBody = response.body ? watch.watch(response.body) : null;
    if (!response.ok) {
      const bodyText = await readLimited(replyBody);
      throw httpError({ status: response.status, headers: response.headers, bodyText }, this.#context);
    }
    const accumulator = new StreamAccumulator(options.onEvent);
    const type = response.headers.get("content-type") ?? "";
    if (type.includes("application/json")) {
      accumulator.addCompletion(parseJson(await new Response(replyBody).text(), this.#context));
      return this.#result(accumulator);
    }
    if (!replyBody) throw truncatedError(this.#context);
    let done = false;
    for await (const event of parseSse(replyBody)) {
      if (event.data.trim() === "[DONE]") {
        done = true;
        break;
      }
      const chunk = parseJson(event.data, this.#context);
      if (chunk?.error) throw streamError(chunk.error, this.#context);
      accumulator.addChunk(chunk);
    }
    if (!done && accumulator.finishReason === undefined) throw truncatedError(this.#context);
    return this.#result(accumulator);
  }

  #result(accumulator: StreamAccumulator): AttemptResult {
    return {
      message: accumulator.message(),
      usage: accumulator.usage(),
      finishReason: accumulator.finishReason ?? "unknown",
    };
  }
}

function abortedError(attempts: number, cause?: unknown): ProviderError {
  return new ProviderError("provider.aborted", "The request to the provider was cancelled", {
    attempts,
    cause,
  });
}

function truncatedError(context: FailureContext): ProviderError {
  return new ProviderError("provider.truncated", `The reply stream from ${context.host} ended early`, {
    retryable: true,
  });
}

// deno-lint-ignore no-explicit-any
function streamError(error: any, context: FailureContext): ProviderError {
  const detail = typeof error?.message === "string" ? error.message : JSON.stringify(error);
  return new ProviderError(
    "provider.server",
    scrub(`${context.host} sent an error: ${detail}`, context.apiKey),
    {
      retryable: true,
    },
  );
}

// deno-lint-ignore no-explicit-any
function parseJson(text: string, context: FailureContext): any {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const sample = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}...` : text);
    const message = scrub(`Cannot parse the reply from ${context.host}: not JSON: ${sample}`, context.apiKey);
    throw new ProviderError("provider.bad_response", message, { cause });
  }
}

async function readLimited(body: ReadableStream<Uint8Array> | null): Promise<string> {
  if (!body) return "";
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  const { promise, resolve, reject } = Promise.withResolvers<void>();
  if (signal.aborted) return Promise.reject(signal.reason);
  const timer = setTimeout(done, ms);
  function done(): void {
    signal.removeEventListener("abort", aborted);
    resolve();
  }
  function aborted(): void {
    clearTimeout(timer);
    reject(signal.reason);
  }
  signal.addEventListener("abort", aborted, { once: true });
  return promise;
}
