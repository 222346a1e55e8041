/**
 * @module
 * The simulator's model of DeepSeek V4 context caching (see /work/shared/DEEPSEEK.md).
 *
 * A request's input is rendered into one template string, the way the server's tokenizer sees it:
 * the tools array first, then a marker per message with its role and fields. The generation prompt is
 * left out so that every unit ends on a message boundary. Tool-call `arguments` are used as the raw strings sent, so a client that re-serialises them
 * changes the bytes. Reasoning is kept for assistant messages with tool calls or after the last user
 * message; the template drops it for earlier plain turns.
 *
 * Units (prefixes that can hit) are stored as (source string, length) pairs:
 * 1. the end of each request's input, and input + output rendered as an exact replay would render it;
 * 2. the longest common prefix of a request with each earlier request's input;
 * 3. every 4096 characters inside those strings.
 * A request hits the longest unit that is a complete prefix of its input; its own units are added after.
 */

import type { GeneratedTurn } from "./_sim_types.ts";

export const UNIT_INTERVAL = 4096;

const END = "<|end|>";
const ASSISTANT = "<|assistant|>";

// deno-lint-ignore no-explicit-any
type Json = any;

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function renderCalls(calls: readonly Json[]): string {
  let out = "";
  for (const call of calls) {
    const fn = call?.function ?? {};
    out += `<|call|>${text(call?.id)}<|name|>${text(fn.name)}<|args|>${text(fn.arguments)}`;
  }
  return out;
}

function renderAssistantBody(message: Json, keepReasoning: boolean): string {
  const reasoning = keepReasoning ? text(message.reasoning_content) : "";
  const think = reasoning === "" ? "" : `<think>${reasoning}</think>`;
  const calls = Array.isArray(message.tool_calls) ? renderCalls(message.tool_calls) : "";
  return `${think}${text(message.content)}${calls}${END}`;
}

function renderMessage(message: Json, keepReasoning: boolean): string {
  const role = text(message?.role);
  if (role === "assistant") return ASSISTANT + renderAssistantBody(message, keepReasoning);
  if (role === "tool") {
    const name = message.name === undefined ? "" : `<|name|>${text(message.name)}`;
    return `<|tool|>${text(message.tool_call_id)}${name}<|content|>${text(message.content)}${END}`;
  }
  return `<|${role}|>${text(message?.content)}${END}`;
}

function hasToolCalls(message: Json): boolean {
  return Array.isArray(message?.tool_calls) && message.tool_calls.length > 0;
}

/** Renders a parsed request body into the template string that the cache model compares. */
export function renderInput(body: Json): string {
  const messages: Json[] = Array.isArray(body?.messages) ? body.messages : [];
  const tools = Array.isArray(body?.tools) && body.tools.length > 0
    ? `<|tools|>${JSON.stringify(body.tools)}${END}`
    : "";
  let lastUser = -1;
  messages.forEach((message, i) => {
    if (message?.role === "user") lastUser = i;
  });
  let out = tools;
  messages.forEach((message, i) => {
    out += renderMessage(message, hasToolCalls(message) || i > lastUser);
  });
  return out;
}

/** Renders a generated turn the way the next request renders it when the client replays it exactly. */
export function renderOutput(turn: GeneratedTurn): string {
  const message = {
    content: turn.content,
    reasoning_content: turn.reasoning,
    tool_calls: turn.toolCalls.map((call) => ({
      id: call.id,
      function: { name: call.name, arguments: call.arguments },
    })),
  };
  return ASSISTANT + renderAssistantBody(message, turn.toolCalls.length > 0);
}

export function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  const block = 1024;
  let i = 0;
  while (i + block <= max && a.slice(i, i + block) === b.slice(i, i + block)) i += block;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

interface Source {
  text: string;
  lengths: Set<number>;
  isInput: boolean;
}

export class CacheModel {
  #sources: Source[] = [];

  /** Characters of the longest stored unit that is a complete prefix of `input`. */
  hit(input: string): number {
    let best = 0;
    for (const source of this.#sources) {
      const common = commonPrefixLength(input, source.text);
      if (common <= best) continue;
      for (const length of source.lengths) {
        if (length <= common && length > best) best = length;
      }
    }
    return best;
  }

  /** Stores the units of one answered request: its input, input + output, common prefixes, intervals. */
  record(input: string, inputWithOutput: string): void {
    const inputUnits = intervalLengths(input.length);
    inputUnits.add(input.length);
    for (const source of this.#sources) {
      if (!source.isInput) continue;
      const common = commonPrefixLength(input, source.text);
      if (common > 0) inputUnits.add(common);
    }
    this.#sources.push({ text: input, lengths: inputUnits, isInput: true });
    const outputUnits = intervalLengths(inputWithOutput.length);
    outputUnits.add(inputWithOutput.length);
    this.#sources.push({ text: inputWithOutput, lengths: outputUnits, isInput: false });
  }
}

function intervalLengths(length: number): Set<number> {
  const lengths = new Set<number>();
  for (let at = UNIT_INTERVAL; at <= length; at += UNIT_INTERVAL) lengths.add(at);
  return lengths;
}
