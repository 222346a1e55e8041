/**
 * @module
 * Wire-independent types of the DeepSeek simulator, re-exported by `deepseek_sim.ts`.
 */

export interface ScriptedToolCall {
  name: string;
  arguments: string;
  id?: string;
}

export type SimFault =
  | { kind: "status"; status: number; retryAfterSeconds?: number; message?: string }
  | { kind: "truncate"; afterChunks: number }
  | { kind: "slow_first_byte"; delayMs: number }
  /** Headers and keep-alives, then nothing more, the connection held open. */
  | { kind: "hang" }
  /** Keep-alives and the first `afterChunks` frames, then nothing more, the connection held open. */
  | { kind: "stall"; afterChunks: number };

export interface ScriptedReply {
  reasoning?: string;
  content?: string;
  toolCalls?: ScriptedToolCall[];
  /** Characters per streamed delta (default 8); tool-call arguments are split the same way. */
  chunkSize?: number;
  /** Number of `: keep-alive` SSE comment lines sent before the first data line. */
  keepAlive?: number;
  /**
   * Streaming rate: each reasoning, content or tool-call delta counts as one token. Overrides the
   * server's rate; 0 sends at full speed.
   */
  tokensPerSecond?: number;
  fault?: SimFault;
}

/** How far a streamed reply has got; updated live while its body is sent. */
export interface StreamProgress {
  /** Token frames (deltas) in the reply. */
  tokens: number;
  /** Token frames enqueued so far. */
  sent: number;
  /** null: sent at full speed. */
  tokensPerSecond: number | null;
  /** `performance.now()` when the first token could leave, and when `[DONE]` was enqueued. */
  startedAt: number;
  doneAt?: number;
}

/** The usage object exactly as the simulator sent it (snake_case, as on the wire). */
export interface SimUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_cache_hit_tokens: number;
  prompt_cache_miss_tokens: number;
  completion_tokens_details: { reasoning_tokens: number };
}

export interface RecordedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  // deno-lint-ignore no-explicit-any
  json: any;
  /** HTTP status the simulator answered with (set once the answer is chosen). */
  status?: number;
  /** Usage reported for this request, when it was answered normally. */
  usage?: SimUsage;
  /** What the simulator answered, when it answered normally. */
  generated?: GeneratedTurn;
  /** Progress of a normally streamed answer. */
  stream?: StreamProgress;
}

export type Responder = (request: RecordedRequest, index: number) => ScriptedReply;

export interface SimOptions {
  script?: ScriptedReply[] | Responder;
  /** When set, any other Bearer token gets 401. */
  apiKey?: string;
  /** Default 0 (any free port). */
  port?: number;
  /** Streaming rate of every reply without its own (default: full speed). */
  tokensPerSecond?: number;
  /**
   * The model's context window in tokens: a request whose input is longer gets DeepSeek's 400
   * (it still consumes its script item). Default: no limit.
   */
  contextWindow?: number;
}

export interface SimStats {
  requests: number;
  promptTokens: number;
  hitTokens: number;
  missTokens: number;
  completionTokens: number;
}

/** One assistant turn as the simulator generated and sent it. */
export interface GeneratedTurn {
  /** Reasoning actually sent ("" when thinking is disabled). */
  reasoning: string;
  content: string;
  toolCalls: { id: string; name: string; arguments: string }[];
}
