/**
 * @module
 * The provider seam: OpenAI-style chat messages, a streaming call, and the usage it reports.
 * Messages are stored and replayed exactly as built here, so key order is part of the contract.
 */

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface SystemMessage {
  role: "system";
  content: string;
}

export interface UserMessage {
  role: "user";
  content: string;
}

export interface AssistantMessage {
  role: "assistant";
  content: string | null;
  reasoning_content?: string;
  tool_calls?: ToolCall[];
}

export interface ToolMessage {
  role: "tool";
  content: string;
  tool_call_id: string;
  name: string;
}

export type ChatMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface Usage {
  promptTokens: number;
  completionTokens: number;
  cacheHitTokens: number;
  cacheMissTokens: number;
  reasoningTokens: number;
}

export type Effort = "auto" | "disabled" | "low" | "high" | "max";

export interface ChatRequest {
  model: string;
  messages: readonly ChatMessage[];
  /** The canonical JSON of the tools array, frozen at registration: spliced into the body verbatim. */
  toolsJson: string;
  effort: Effort;
  maxTokens?: number;
  /** "none": the tools stay in the request (the cached prefix) but the model may not call them. */
  toolChoice?: "none";
}

export type StreamEvent =
  | { type: "reasoning"; text: string }
  | { type: "text"; text: string }
  | { type: "tool_call"; index: number; id: string; name: string }
  | { type: "retry"; attempt: number; maxAttempts: number; delayMs: number; reason: string };

export interface ChatResult {
  message: AssistantMessage;
  usage: Usage;
  finishReason: string;
  /** The exact request body sent on the successful attempt (for effect tests and `cache explain`). */
  requestBytes: number;
}

export interface StreamOptions {
  signal: AbortSignal;
  onEvent?: (event: StreamEvent) => void;
}

export interface Provider {
  readonly name: string;
  stream(request: ChatRequest, options: StreamOptions): Promise<ChatResult>;
}

export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, cacheHitTokens: 0, cacheMissTokens: 0, reasoningTokens: 0 };
}

export function addUsage(total: Usage, add: Usage): Usage {
  return {
    promptTokens: total.promptTokens + add.promptTokens,
    completionTokens: total.completionTokens + add.completionTokens,
    cacheHitTokens: total.cacheHitTokens + add.cacheHitTokens,
    cacheMissTokens: total.cacheMissTokens + add.cacheMissTokens,
    reasoningTokens: total.reasoningTokens + add.reasoningTokens,
  };
}
