/**
 * @module
 * How the simulator renders a request for its tokenizer and cache model: piece by piece, in the order the
 * server's chat template would see them — the tool schemas (one piece each), then one piece per message —
 * with DeepSeek's special tokens as role markers (one token each). Pieces are tokenised one by one and end
 * to end (`tokenizer.ts`), so the token count of a prefix of pieces never depends on what follows it.
 *
 * Tool-call `arguments` are rendered as the raw strings sent, so a client that re-serialises them changes
 * the tokens. Reasoning is kept for assistant messages with tool calls or after the last user message;
 * the template drops it for earlier plain turns. The generation prompt is left out so that every cache
 * unit ends on a message boundary.
 */

import type { GeneratedTurn } from "./_sim_types.ts";
import { countTokens, encodePieces, encodeTokens } from "./tokenizer.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Which part of the prompt a piece belongs to: the system prompt, the tool schemas, or the rest. */
export type PieceKind = "system" | "tools" | "context";

export interface Piece {
  kind: PieceKind;
  text: string;
}

/** Prompt tokens by part, as the simulator counts them. */
export interface PromptBreakdown {
  system: number;
  tools: number;
  /** Every other message: the user's task, injected context, the conversation so far. */
  context: number;
  total: number;
}

const USER = "<｜User｜>";
const ASSISTANT = "<｜Assistant｜>";
const END = "<｜end▁of▁sentence｜>";
const CALLS_BEGIN = "<｜tool▁calls▁begin｜>";
const CALLS_END = "<｜tool▁calls▁end｜>";
const CALL_BEGIN = "<｜tool▁call▁begin｜>";
const CALL_END = "<｜tool▁call▁end｜>";
const OUTPUT_BEGIN = "<｜tool▁output▁begin｜>";
const OUTPUT_END = "<｜tool▁output▁end｜>";
const SEP = "<｜tool▁sep｜>";
const TOOLS_HEADER = "## Tools\n";

function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function renderCalls(calls: readonly Json[]): string {
  if (calls.length === 0) return "";
  let out = CALLS_BEGIN;
  for (const call of calls) {
    const fn = call?.function ?? {};
    out += `${CALL_BEGIN}${text(call?.id)}${SEP}${text(fn.name)}\n${text(fn.arguments)}${CALL_END}`;
  }
  return out + CALLS_END;
}

function renderAssistant(message: Json, keepReasoning: boolean): string {
  const reasoning = keepReasoning ? text(message.reasoning_content) : "";
  const think = reasoning === "" ? "" : `<think>${reasoning}</think>`;
  const calls = Array.isArray(message.tool_calls) ? renderCalls(message.tool_calls) : "";
  return `${ASSISTANT}${think}${text(message.content)}${calls}${END}`;
}

function renderMessage(message: Json, keepReasoning: boolean): string {
  const role = text(message?.role);
  if (role === "assistant") return renderAssistant(message, keepReasoning);
  if (role === "tool") {
    const name = message.name === undefined ? "" : `${SEP}${text(message.name)}`;
    return `${OUTPUT_BEGIN}${text(message.tool_call_id)}${name}\n${text(message.content)}${OUTPUT_END}`;
  }
  if (role === "user") return `${USER}${text(message?.content)}`;
  // The system prompt has no marker of its own: the template writes it as it is, first.
  return text(message?.content);
}

function hasToolCalls(message: Json): boolean {
  return Array.isArray(message?.tool_calls) && message.tool_calls.length > 0;
}

/** A parsed request body as the pieces the server's template would render, in order. */
export function renderPieces(body: Json): Piece[] {
  const messages: Json[] = Array.isArray(body?.messages) ? body.messages : [];
  const tools: Json[] = Array.isArray(body?.tools) ? body.tools : [];
  const pieces: Piece[] = [];
  if (tools.length > 0) {
    pieces.push({ kind: "tools", text: TOOLS_HEADER });
    for (const tool of tools) pieces.push({ kind: "tools", text: `${JSON.stringify(tool)}\n` });
  }
  let lastUser = -1;
  messages.forEach((message, i) => {
    if (message?.role === "user") lastUser = i;
  });
  messages.forEach((message, i) => {
    const kind = message?.role === "system" ? "system" : "context";
    pieces.push({ kind, text: renderMessage(message, hasToolCalls(message) || i > lastUser) });
  });
  return pieces;
}

/** The rendered request as one string (the pieces joined). */
export function renderInput(body: Json): string {
  return renderPieces(body).map((piece) => piece.text).join("");
}

/** The request's token ids, tokenised piece by piece. */
export function inputTokens(body: Json): Uint32Array {
  return encodePieces(renderPieces(body).map((piece) => piece.text));
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
  return renderAssistant(message, turn.toolCalls.length > 0);
}

/** The request's tokens followed by the turn's, as an exact replay would send them next. */
export function inputWithOutputTokens(input: Uint32Array, turn: GeneratedTurn): Uint32Array {
  const output = encodeTokens(renderOutput(turn));
  const out = new Uint32Array(input.length + output.length);
  out.set(input);
  out.set(output, input.length);
  return out;
}

/** Prompt tokens of a request by part: system prompt, tool schemas, the other messages. */
export function promptBreakdown(body: Json): PromptBreakdown {
  const breakdown: PromptBreakdown = { system: 0, tools: 0, context: 0, total: 0 };
  for (const piece of renderPieces(body)) {
    const tokens = countTokens(piece.text);
    breakdown[piece.kind] += tokens;
    breakdown.total += tokens;
  }
  return breakdown;
}
