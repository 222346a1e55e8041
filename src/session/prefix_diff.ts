/**
 * @module
 * Where did a cache miss begin? Splits a request into the parts the provider sees (system prompt, each
 * tool schema, each message's content, reasoning and tool-call arguments) and finds the first part of
 * the new request that differs from what the previous request sent plus what the model answered.
 */
import type { ChatMessage } from "../provider/provider.ts";

export interface PrefixPart {
  label: string;
  text: string;
}

export type PrefixVerdict =
  | { kind: "intact" }
  | { kind: "changed"; label: string; offset: number; before: string; after: string }
  | { kind: "reset"; keptParts: number };

export function prefixParts(messages: readonly ChatMessage[], toolsJson?: string): PrefixPart[] {
  const parts: PrefixPart[] = [];
  messages.forEach((message, i) => {
    if (i === 0 && message.role === "system") {
      parts.push({ label: "system prompt", text: message.content });
      if (toolsJson !== undefined) parts.push(...toolParts(toolsJson));
      return;
    }
    parts.push(...messageParts(message, i));
  });
  return parts;
}

function toolParts(toolsJson: string): PrefixPart[] {
  const tools = JSON.parse(toolsJson) as { function?: { name?: string } }[];
  return tools.map((tool) => ({
    label: `tool schema of ${tool.function?.name ?? "?"}`,
    text: JSON.stringify(tool),
  }));
}

function messageParts(message: ChatMessage, index: number): PrefixPart[] {
  const name = `message ${index} (${message.role})`;
  const parts: PrefixPart[] = [{ label: name, text: message.content ?? "" }];
  if (message.role === "assistant") {
    if (message.reasoning_content !== undefined) {
      parts.unshift({ label: `reasoning of message ${index}`, text: message.reasoning_content });
    }
    for (const call of message.tool_calls ?? []) {
      parts.push({
        label: `tool-call arguments of message ${index} (${call.function.name})`,
        text: `${call.id} ${call.function.name} ${call.function.arguments}`,
      });
    }
  }
  if (message.role === "tool") parts[0]!.text = `${message.tool_call_id} ${message.content}`;
  return parts;
}

/** Compares what should have been the new request's prefix with what was sent. */
export function comparePrefix(expected: readonly PrefixPart[], actual: readonly PrefixPart[]): PrefixVerdict {
  for (let i = 0; i < expected.length; i++) {
    const want = expected[i]!;
    const got = actual[i];
    if (!got) return { kind: "reset", keptParts: i };
    if (want.label === got.label && want.text === got.text) continue;
    const offset = commonPrefixLength(want.text, got.text);
    return {
      kind: "changed",
      label: want.label === got.label ? want.label : `${want.label} (now ${got.label})`,
      offset,
      before: excerpt(want.text, offset),
      after: excerpt(got.text, offset),
    };
  }
  return { kind: "intact" };
}

function commonPrefixLength(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function excerpt(text: string, offset: number): string {
  const start = Math.max(0, offset - 20);
  return (start > 0 ? "…" : "") + text.slice(start, offset + 40) + (offset + 40 < text.length ? "…" : "");
}
