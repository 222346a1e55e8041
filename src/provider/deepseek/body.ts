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
  const messages = request.messages.map((message) => messageJson(message, options.reasoningProtocol));
  let body = `{"model":${JSON.stringify(request.model)},"messages":[${messages.join(",")}]`;
  const tools = request.toolsJson.trim();
  if (tools !== "" && tools !== "[]") body += `,"tools":${request.toolsJson}`;
  body += `,"stream":${options.stream}`;
  if (options.stream) body += `,"stream_options":{"include_usage":true}`;
  if (request.maxTokens !== undefined && request.maxTokens > 0) {
    body += `,"max_tokens":${JSON.stringify(request.maxTokens)}`;
  }
  if (options.reasoningProtocol === "deepseek") body += thinkingFields(request.effort);
  return body + "}";
}

function thinkingFields(effort: Effort): string {
  if (effort === "disabled") return `,"thinking":{"type":"disabled"}`;
  const level = effort === "auto" ? "high" : effort;
  return `,"thinking":{"type":"enabled"},"reasoning_effort":${JSON.stringify(level)}`;
}

function messageJson(message: ChatMessage, protocol: BodyOptions["reasoningProtocol"]): string {
  if (message.role !== "assistant") return JSON.stringify(message);
  const hasCalls = (message.tool_calls?.length ?? 0) > 0;
  if (protocol === "none") {
    // A server that streamed reasoning with a tool call (a DeepSeek model behind another host) wants it back.
    if (hasCalls || !Object.hasOwn(message, "reasoning_content")) return JSON.stringify(message);
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
