/**
 * @module
 * A real HTTP server on 127.0.0.1 that speaks DeepSeek's OpenAI-compatible chat completions API from a
 * script, records every request byte for byte, and models the reasoning replay rule and V4 cache units
 * (see /work/shared/DEEPSEEK.md and `_sim_cache.ts`). Every token figure it reports comes from DeepSeek
 * V3's tokenizer (`tokenizer.ts`), over the request rendered piece by piece (`_sim_render.ts`).
 *
 * Standalone: `deno run -A tests/support/deepseek_sim.ts --port 0 --script script.json
 * [--tokens-per-second N]` prints `listening <url>` and stops on SIGTERM, SIGINT or when stdin closes
 * (spawn it with stdin piped).
 */

import { parseArgs } from "node:util";
import { CacheModel } from "./_sim_cache.ts";
import { inputTokens, inputWithOutputTokens } from "./_sim_render.ts";
import { loadTokenizer } from "./tokenizer.ts";
import { checkAuth, checkBody, checkReplay, recordRequest, thinkingEnabled } from "./_sim_request.ts";
import type {
  GeneratedTurn,
  RecordedRequest,
  Responder,
  ScriptedReply,
  SimOptions,
  SimStats,
  SimUsage,
} from "./_sim_types.ts";
import { newProgress, pacedBody } from "./_sim_pace.ts";
import {
  buildUsage,
  completionBody,
  type CompletionMeta,
  errorResponse,
  type StreamFrames,
  streamFrames,
} from "./_sim_wire.ts";

export type {
  GeneratedTurn,
  RecordedRequest,
  Responder,
  ScriptedReply,
  ScriptedToolCall,
  SimFault,
  SimOptions,
  SimStats,
  SimUsage,
  StreamProgress,
} from "./_sim_types.ts";
export {
  inputTokens,
  type Piece,
  type PieceKind,
  type PromptBreakdown,
  promptBreakdown,
  renderInput,
  renderOutput,
  renderPieces,
} from "./_sim_render.ts";
export { countTokens } from "./tokenizer.ts";

const CHAT_PATHS = new Set(["/chat/completions", "/v1/chat/completions"]);
const DEFAULT_CHUNK_SIZE = 8;
const KEEP_ALIVE = ": keep-alive\n\n";

type BodyEnd = "close" | "hang";

/** Runs `body` against a simulator started with `options`, and closes it after. */
export async function withSim(options: SimOptions, body: (sim: DeepSeekSim) => Promise<void>): Promise<void> {
  const sim = await DeepSeekSim.start(options);
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

export class DeepSeekSim {
  readonly requests: RecordedRequest[] = [];
  #script: ScriptedReply[] | Responder;
  #apiKey: string | undefined;
  #tokensPerSecond: number | undefined;
  /** See `SimOptions.contextWindow`; tests may change it between requests. */
  contextWindow: number | undefined;
  #server: Deno.HttpServer | undefined;
  #url = "";
  #closing = new AbortController();
  #closed: Promise<void> | undefined;
  #hanging = new Set<ReadableStreamDefaultController<Uint8Array>>();
  #cache = new CacheModel();
  #reasoningByCall = new Map<string, string>();
  /** Plain replies generated without reasoning: replaying them without the key is not the client's fault. */
  #unreasoned = new Set<string>();
  #callCount = 0;
  #completionCount = 0;
  #totals = { promptTokens: 0, hitTokens: 0, missTokens: 0, completionTokens: 0 };

  private constructor(options: SimOptions) {
    this.#script = typeof options.script === "function" ? options.script : [...(options.script ?? [])];
    this.#apiKey = options.apiKey;
    this.#tokensPerSecond = options.tokensPerSecond;
    this.contextWindow = options.contextWindow;
  }

  static async start(options: SimOptions = {}): Promise<DeepSeekSim> {
    loadTokenizer();
    const sim = new DeepSeekSim(options);
    await sim.#listen(options.port ?? 0);
    return sim;
  }

  /** Base URL without a trailing slash; POST `${url}/chat/completions` (or `/v1/chat/completions`). */
  get url(): string {
    return this.#url;
  }

  /** Appends replies to an array script. */
  push(...replies: ScriptedReply[]): void {
    if (typeof this.#script === "function") {
      throw new TypeError("Cannot push replies: the script is a responder");
    }
    this.#script.push(...replies);
  }

  stats(): SimStats {
    return { requests: this.requests.length, ...this.#totals };
  }

  /** Ends hanging streams and pending delays, then shuts the server down. Safe to call twice. */
  close(): Promise<void> {
    this.#closed ??= this.#shutdown();
    return this.#closed;
  }

  async #shutdown(): Promise<void> {
    this.#closing.abort();
    for (const controller of this.#hanging) endStream(controller);
    this.#hanging.clear();
    await this.#server?.shutdown();
  }

  #listen(port: number): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#server = Deno.serve({
      hostname: "127.0.0.1",
      port,
      onListen: (addr) => {
        this.#url = `http://127.0.0.1:${addr.port}`;
        resolve();
      },
      onError: (error) => errorResponse(500, `Simulator failed: ${String(error)}`),
    }, (request) => this.#handle(request));
    return promise;
  }

  async #handle(request: Request): Promise<Response> {
    const recorded = await recordRequest(request);
    const index = this.requests.push(recorded) - 1;
    const response = await this.#answer(request, recorded, index);
    recorded.status = response.status;
    return response;
  }

  async #answer(request: Request, recorded: RecordedRequest, index: number): Promise<Response> {
    if (request.method !== "POST" || !CHAT_PATHS.has(recorded.path)) {
      return errorResponse(404, `No route for ${request.method} "${recorded.path}"`);
    }
    // Every chat request consumes one script item, even when it is then rejected.
    const queued = typeof this.#script === "function" ? undefined : this.#script.shift();
    const rejection = checkAuth(recorded, this.#apiKey) ?? checkBody(recorded) ??
      checkReplay(recorded.json, this.#reasoningByCall, this.#unreasoned);
    if (rejection) return errorResponse(rejection.status, rejection.message);
    const overflow = this.#overflow(recorded);
    if (overflow) return errorResponse(400, overflow);
    let reply = queued;
    if (typeof this.#script === "function") {
      try {
        reply = this.#script(recorded, index);
      } catch (error) {
        return errorResponse(500, `Simulator responder failed: ${String(error)}`);
      }
    }
    if (!reply) return errorResponse(500, "simulator script exhausted");
    const fault = reply.fault;
    if (fault?.kind === "status") return errorResponse(fault.status, fault.message, fault.retryAfterSeconds);
    if (fault?.kind === "slow_first_byte") await this.#sleep(fault.delayMs);
    return this.#reply(reply, recorded);
  }

  /** DeepSeek's wording when the input is longer than the model's context. */
  #overflow(recorded: RecordedRequest): string | undefined {
    if (this.contextWindow === undefined) return undefined;
    const tokens = inputTokens(recorded.json).length;
    if (tokens <= this.contextWindow) return undefined;
    return `This model's maximum context length is ${this.contextWindow} tokens. However, you requested ` +
      `${tokens} tokens (${tokens} in the messages, 0 in the completion). Please reduce the length of the ` +
      "messages or completion.";
  }

  #reply(reply: ScriptedReply, recorded: RecordedRequest): Response {
    const body = recorded.json;
    const thinking = thinkingEnabled(body);
    const turn = this.#generate(reply, thinking);
    const meta: CompletionMeta = {
      id: `chatcmpl-sim-${++this.#completionCount}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    };
    const input = inputTokens(body);
    const usage = buildUsage(turn, { tokens: input.length, hitTokens: this.#cache.hit(input) });
    const faulted = ["truncate", "hang", "stall"].includes(reply.fault?.kind ?? "");
    if (!faulted) this.#account(turn, { input, usage, recorded });
    if (body.stream === true) return this.#streamReply(reply, turn, { meta, usage, body, recorded });
    const json = completionBody(turn, meta, { usage, thinking });
    const headers = { "content-type": "application/json" };
    if (reply.fault?.kind === "hang" || reply.fault?.kind === "stall") {
      return new Response(this.#body([], "hang"), { headers });
    }
    if (reply.fault?.kind === "truncate") {
      return new Response(this.#body([json.slice(0, Math.floor(json.length / 2))], "close"), { headers });
    }
    return new Response(json, { headers });
  }

  #streamReply(
    reply: ScriptedReply,
    turn: GeneratedTurn,
    // deno-lint-ignore no-explicit-any
    options: { meta: CompletionMeta; usage: SimUsage; body: any; recorded: RecordedRequest },
  ): Response {
    const includeUsage = options.body.stream_options?.include_usage === true;
    const chunkSize = Math.max(1, Math.floor(reply.chunkSize ?? DEFAULT_CHUNK_SIZE));
    const frames = streamFrames(turn, options.meta, {
      chunkSize,
      usage: includeUsage ? options.usage : undefined,
    });
    const keepAlive = new Array<string>(Math.max(0, reply.keepAlive ?? 0)).fill(KEEP_ALIVE);
    const headers = { "content-type": "text/event-stream", "cache-control": "no-cache" };
    const fault = reply.fault;
    let stream: ReadableStream<Uint8Array>;
    if (fault?.kind === "hang") stream = this.#body(keepAlive, "hang");
    else if (fault?.kind === "truncate" || fault?.kind === "stall") {
      const sent = [...keepAlive, ...frames.body.slice(0, Math.max(0, fault.afterChunks))];
      stream = this.#body(sent, fault.kind === "truncate" ? "close" : "hang");
    } else {
      const head = [...keepAlive, ...frames.body.slice(0, 1)];
      stream = this.#pacedBody(reply, { head, frames, recorded: options.recorded });
    }
    return new Response(stream, { headers });
  }

  /** Keep-alives and the role frame at once, then the token frames at the reply's or server's rate. */
  #pacedBody(
    reply: ScriptedReply,
    parts: { head: string[]; frames: StreamFrames; recorded: RecordedRequest },
  ): ReadableStream<Uint8Array> {
    const tokens = parts.frames.body.slice(1);
    const rate = reply.tokensPerSecond ?? this.#tokensPerSecond ?? 0;
    const progress = newProgress(tokens.length, rate > 0 ? rate : null);
    parts.recorded.stream = progress;
    return pacedBody({ head: parts.head, tokens, tail: parts.frames.tail }, {
      tokensPerSecond: progress.tokensPerSecond,
      progress,
      sleep: (ms) => this.#sleep(ms),
      closing: this.#closing.signal,
    });
  }

  #generate(reply: ScriptedReply, thinking: boolean): GeneratedTurn {
    return {
      reasoning: thinking ? reply.reasoning ?? "" : "",
      content: reply.content ?? "",
      toolCalls: (reply.toolCalls ?? []).map((call) => ({
        id: call.id ?? `call_${++this.#callCount}`,
        name: call.name,
        arguments: call.arguments,
      })),
    };
  }

  /** Effects of a normally answered request: cache units, replay bookkeeping, usage totals. */
  #account(
    turn: GeneratedTurn,
    options: { input: Uint32Array; usage: SimUsage; recorded: RecordedRequest },
  ): void {
    const { input, usage, recorded } = options;
    this.#cache.record(input, inputWithOutputTokens(input, turn));
    if (turn.reasoning !== "") {
      for (const call of turn.toolCalls) this.#reasoningByCall.set(call.id, turn.reasoning);
    } else if (turn.toolCalls.length === 0) this.#unreasoned.add(turn.content);
    recorded.usage = usage;
    recorded.generated = turn;
    this.#totals.promptTokens += usage.prompt_tokens;
    this.#totals.hitTokens += usage.prompt_cache_hit_tokens;
    this.#totals.missTokens += usage.prompt_cache_miss_tokens;
    this.#totals.completionTokens += usage.completion_tokens;
  }

  #body(pieces: string[], end: BodyEnd): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    const hanging = this.#hanging;
    const closing = this.#closing.signal;
    let held: ReadableStreamDefaultController<Uint8Array> | undefined;
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(encoder.encode(piece));
        if (end === "close" || closing.aborted) return controller.close();
        held = controller;
        hanging.add(controller);
      },
      cancel() {
        if (held) hanging.delete(held);
      },
    });
  }

  /** Waits `ms`, or less when the sim closes; a client that leaves meanwhile is not watched. */
  #sleep(ms: number): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    const closing = this.#closing.signal;
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      closing.removeEventListener("abort", done);
      resolve();
    }
    if (closing.aborted) done();
    else closing.addEventListener("abort", done);
    return promise;
  }
}

function endStream(controller: ReadableStreamDefaultController<Uint8Array>): void {
  try {
    controller.close();
  } catch {
    // Already closed or cancelled by the client.
  }
}

async function waitForStop(): Promise<void> {
  const { promise, resolve } = Promise.withResolvers<void>();
  const signals: Deno.Signal[] = ["SIGTERM", "SIGINT"];
  for (const signal of signals) Deno.addSignalListener(signal, resolve);
  const reader = Deno.stdin.readable.getReader();
  (async () => {
    while (!(await reader.read()).done) { /* drain until stdin closes */ }
    resolve();
  })().catch(resolve);
  await promise;
  for (const signal of signals) Deno.removeSignalListener(signal, resolve);
  await reader.cancel().catch(() => {});
}

async function main(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: "string", default: "0" },
      script: { type: "string" },
      "api-key": { type: "string" },
      "tokens-per-second": { type: "string" },
    },
  });
  const script: ScriptedReply[] = values.script ? JSON.parse(await Deno.readTextFile(values.script)) : [];
  if (!Array.isArray(script)) throw new TypeError(`Cannot load script "${values.script}": not a JSON array`);
  const sim = await DeepSeekSim.start({
    script,
    port: Number(values.port),
    apiKey: values["api-key"],
    tokensPerSecond: values["tokens-per-second"] ? Number(values["tokens-per-second"]) : undefined,
  });
  console.log(`listening ${sim.url}`);
  await waitForStop();
  await sim.close();
}

if (import.meta.main) await main(Deno.args);
