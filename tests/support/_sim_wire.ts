/**
 * @module
 * Wire shapes of the simulator: SSE chunks, the non-streaming completion, usage and error bodies.
 */

import type { GeneratedTurn, SimUsage } from "./_sim_types.ts";
import { countTokens } from "./tokenizer.ts";

export interface CompletionMeta {
  id: string;
  created: number;
  model: string;
}

export interface StreamFrames {
  /** Role, reasoning, content and tool-call chunks: what a truncated stream may send. */
  body: string[];
  /** The finish chunk, the usage chunk when asked for, and `[DONE]`. */
  tail: string[];
}

const ERROR_TYPES: Record<number, string> = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "insufficient_balance_error",
  422: "invalid_request_error",
  429: "rate_limit_error",
};

const DEFAULT_MESSAGES: Record<number, string> = {
  400: "Invalid request",
  401: "Authentication Fails, Your api key is invalid",
  402: "Insufficient Balance",
  422: "Invalid Parameters",
  429: "Rate Limit Reached",
  500: "Internal Server Error",
  503: "Server Overloaded, please try again later",
};

export function errorBody(status: number, message?: string): string {
  const type = ERROR_TYPES[status] ?? "server_error";
  const text = message ?? DEFAULT_MESSAGES[status] ?? `Simulated error ${status}`;
  return JSON.stringify({ error: { message: text, type, param: null, code: type } });
}

export function errorResponse(status: number, message?: string, retryAfterSeconds?: number): Response {
  const headers = new Headers({ "content-type": "application/json" });
  if (retryAfterSeconds !== undefined) headers.set("retry-after", String(retryAfterSeconds));
  return new Response(errorBody(status, message), { status, headers });
}

/** Usage of one answer; completion tokens are the reasoning, content, call names and arguments tokenised. */
export function buildUsage(turn: GeneratedTurn, prompt: { tokens: number; hitTokens: number }): SimUsage {
  const reasoning = countTokens(turn.reasoning);
  const visible = countTokens(turn.content) +
    turn.toolCalls.reduce((sum, call) => sum + countTokens(call.name) + countTokens(call.arguments), 0);
  const completion = reasoning + visible;
  return {
    prompt_tokens: prompt.tokens,
    completion_tokens: completion,
    total_tokens: prompt.tokens + completion,
    prompt_cache_hit_tokens: prompt.hitTokens,
    prompt_cache_miss_tokens: prompt.tokens - prompt.hitTokens,
    completion_tokens_details: { reasoning_tokens: reasoning },
  };
}

/** Splits by code points so a piece never ends inside a surrogate pair. */
export function splitPieces(value: string, size: number): string[] {
  const points = Array.from(value);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(""));
  return pieces;
}

function finishReason(turn: GeneratedTurn): string {
  return turn.toolCalls.length > 0 ? "tool_calls" : "stop";
}

export function streamFrames(
  turn: GeneratedTurn,
  meta: CompletionMeta,
  options: { chunkSize: number; usage?: SimUsage },
): StreamFrames {
  const frame = (payload: unknown) => `data: ${JSON.stringify(payload)}\n\n`;
  const chunk = (delta: unknown, finish: string | null = null) =>
    frame({
      id: meta.id,
      object: "chat.completion.chunk",
      created: meta.created,
      model: meta.model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const body = [chunk({ role: "assistant" })];
  for (const piece of splitPieces(turn.reasoning, options.chunkSize)) {
    body.push(chunk({ reasoning_content: piece }));
  }
  for (const piece of splitPieces(turn.content, options.chunkSize)) body.push(chunk({ content: piece }));
  turn.toolCalls.forEach((call, index) => {
    const head = { index, id: call.id, type: "function", function: { name: call.name, arguments: "" } };
    body.push(chunk({ tool_calls: [head] }));
    for (const piece of splitPieces(call.arguments, options.chunkSize)) {
      body.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });
  const tail = [chunk({}, finishReason(turn))];
  if (options.usage) {
    const { id, created, model } = meta;
    tail.push(
      frame({ id, object: "chat.completion.chunk", created, model, choices: [], usage: options.usage }),
    );
  }
  tail.push("data: [DONE]\n\n");
  return { body, tail };
}

export function completionBody(
  turn: GeneratedTurn,
  meta: CompletionMeta,
  options: { usage: SimUsage; thinking: boolean },
): string {
  // deno-lint-ignore no-explicit-any
  const message: Record<string, any> = { role: "assistant", content: turn.content };
  if (options.thinking) message.reasoning_content = turn.reasoning;
  if (turn.toolCalls.length > 0) {
    message.tool_calls = turn.toolCalls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return JSON.stringify({
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(turn) }],
    usage: options.usage,
  });
}
