/**
 * @module
 * Folds streamed chat-completion chunks into one assistant message, emitting events as deltas arrive.
 */
import type { AssistantMessage, StreamEvent, ToolCall, Usage } from "../provider.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

export class StreamAccumulator {
  #onEvent: ((event: StreamEvent) => void) | undefined;
  #content = "";
  #reasoning = "";
  #calls = new Map<number, PendingCall>();
  #usage: Usage | undefined;
  finishReason: string | undefined;

  constructor(onEvent?: (event: StreamEvent) => void) {
    this.#onEvent = onEvent;
  }

  addChunk(chunk: Json): void {
    if (chunk?.usage) this.#usage = usageFrom(chunk.usage);
    const choices: Json[] = Array.isArray(chunk?.choices) ? chunk.choices : [];
    const choice = choices.find((item) => (item?.index ?? 0) === 0);
    if (!choice) return;
    const delta = choice.delta ?? {};
    if (typeof delta.reasoning_content === "string" && delta.reasoning_content !== "") {
      this.#reasoning += delta.reasoning_content;
      this.#onEvent?.({ type: "reasoning", text: delta.reasoning_content });
    }
    if (typeof delta.content === "string" && delta.content !== "") {
      this.#content += delta.content;
      this.#onEvent?.({ type: "text", text: delta.content });
    }
    if (Array.isArray(delta.tool_calls)) { for (const piece of delta.tool_calls) this.#addCallPiece(piece); }
    if (typeof choice.finish_reason === "string") this.finishReason = choice.finish_reason;
  }

  /** A whole non-streamed completion, for servers that ignore `stream: true`. */
  addCompletion(completion: Json): void {
    if (completion?.usage) this.#usage = usageFrom(completion.usage);
    const choice = completion?.choices?.[0];
    const message = choice?.message ?? {};
    const calls: Json[] = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    this.addChunk({
      choices: [{
        index: 0,
        delta: {
          reasoning_content: message.reasoning_content,
          content: message.content,
          tool_calls: calls.map((call, index) => ({ ...call, index })),
        },
        finish_reason: typeof choice?.finish_reason === "string" ? choice.finish_reason : "stop",
      }],
    });
  }

  #addCallPiece(piece: Json): void {
    const index = typeof piece?.index === "number" ? piece.index : this.#calls.size;
    const fn = piece?.function ?? {};
    let call = this.#calls.get(index);
    if (!call) {
      call = { id: stringOr(piece?.id), name: stringOr(fn.name), arguments: "" };
      this.#calls.set(index, call);
      this.#onEvent?.({ type: "tool_call", index, id: call.id, name: call.name });
    } else {
      if (call.id === "") call.id = stringOr(piece?.id);
      if (call.name === "") call.name = stringOr(fn.name);
    }
    if (typeof fn.arguments === "string") call.arguments += fn.arguments;
  }

  message(): AssistantMessage {
    const calls: ToolCall[] = [...this.#calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => ({
        id: call.id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      }));
    const content = this.#content === "" && calls.length > 0 ? null : this.#content;
    const message: AssistantMessage = { role: "assistant", content };
    if (this.#reasoning !== "") message.reasoning_content = this.#reasoning;
    if (calls.length > 0) message.tool_calls = calls;
    return message;
  }

  usage(): Usage {
    return this.#usage ?? usageFrom({});
  }
}

function stringOr(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function usageFrom(raw: Json): Usage {
  const prompt = count(raw?.prompt_tokens) ?? 0;
  const hit = count(raw?.prompt_cache_hit_tokens);
  const miss = count(raw?.prompt_cache_miss_tokens);
  return {
    promptTokens: prompt,
    completionTokens: count(raw?.completion_tokens) ?? 0,
    cacheHitTokens: hit ?? (miss === undefined ? 0 : Math.max(0, prompt - miss)),
    cacheMissTokens: miss ?? Math.max(0, prompt - (hit ?? 0)),
    reasoningTokens: count(raw?.completion_tokens_details?.reasoning_tokens) ?? 0,
  };
}
