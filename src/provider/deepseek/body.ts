/**
 * @module
 * The request body, built by concatenation so the same request always yields the same bytes: the
 * prefix cache only hits when every earlier byte is identical.
 */
import type { AssistantMessage, ChatMessage, ChatRequest, Effort } from "../provider.ts";

export interface BodyOptions {
  reasoningProtocol: "deepseek" | "none";
  stream: boolean;
}

export function buildRequestBody(request: ChatRequest, options: BodyOptions): string {
  const spans = toolCallSpans(request.messages);
  const messages = request.messages.map((message, index) =>
    messageJson(message, options.reasoningProtocol, spans[index]!)
  );
  let body = `{"model":${JSON.stringify(request.model)},"messages":[${messages.join(",")}]`;
  const tools = request.toolsJson.trim();
  if (tools !== "" && tools !== "[]") body += `,"tools":${request.toolsJson}`;
  body += `,"stream":${options.stream}`;
  if (options.stream) body += `,"stream_options":{"include_usage":true}`;
  if (request.maxTokens !== undefined && request.maxTokens > 0) {
    body += `,"max_tokens":${JSON.stringify(request.maxTokens)}`;
  }
  if (options.reasoningProtocol === "deepseek") body += thinkingFields(request.effort);
  // Last, after every field the prefix depends on: it changes what the model may emit, not its input.
  if (request.toolChoice && tools !== "" && tools !== "[]") {
    body += `,"tool_choice":${JSON.stringify(request.toolChoice)}`;
  }
  return body + "}";
}

function thinkingFields(effort: Effort): string {
  if (effort === "disabled") return `,"thinking":{"type":"disabled"}`;
  const level = effort === "auto" ? "high" : effort;
  return `,"thinking":{"type":"enabled"},"reasoning_effort":${JSON.stringify(level)}`;
}

/** For each message: whether the span between two user messages it sits in made a tool call. */
function toolCallSpans(messages: readonly ChatMessage[]): boolean[] {
  const marks = new Array<boolean>(messages.length).fill(false);
  let start = 0;
  for (let i = 0; i <= messages.length; i++) {
    if (i < messages.length && messages[i]!.role !== "user") continue;
    const span = messages.slice(start, i);
    const called = span.some((m) => m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0);
    marks.fill(called, start, i);
    start = i + 1;
  }
  return marks;
}

function messageJson(
  message: ChatMessage,
  protocol: BodyOptions["reasoningProtocol"],
  inToolSpan: boolean,
): string {
  if (message.role !== "assistant") return JSON.stringify(message);
  const hasCalls = (message.tool_calls?.length ?? 0) > 0;
  if (protocol === "none") {
    // A server that streamed reasoning in a turn that called tools (a DeepSeek model behind another
    // host) wants it back on every assistant message of that turn, the final answer too.
    if (inToolSpan || !Object.hasOwn(message, "reasoning_content")) return JSON.stringify(message);
    return JSON.stringify(withoutKey(message, "reasoning_content"));
  }
  if (!hasCalls || Object.hasOwn(message, "reasoning_content")) return JSON.stringify(message);
  // DeepSeek answers 400 when a tool-calling turn comes back without reasoning_content.
  return JSON.stringify(withEmptyReasoning(message));
}

function withoutKey(message: AssistantMessage, key: string): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message)) if (name !== key) copy[name] = value;
  return copy;
}

/** Inserts `reasoning_content: ""` where the stored key order puts it: just before `tool_calls`. */
function withEmptyReasoning(message: AssistantMessage): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(message)) {
    if (name === "tool_calls") copy.reasoning_content = "";
    copy[name] = value;
  }
  return copy;
}
