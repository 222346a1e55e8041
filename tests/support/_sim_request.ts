/**
 * @module
 * Request checks of the simulator: auth, body shape, model names and the reasoning replay rule.
 */

import type { RecordedRequest } from "./_sim_types.ts";

export const KNOWN_MODELS: ReadonlySet<string> = new Set([
  "deepseek-flash",
  "deepseek-v4-pro",
  "deepseek-v4-flash",
  "deepseek-chat",
  "deepseek-reasoner",
]);

export const REPLAY_MESSAGE = "The reasoning_content in the thinking mode must be passed back to the API.";
export const AUTH_MESSAGE = "Authentication Fails, Your api key is invalid";

const ROLES = new Set(["system", "user", "assistant", "tool"]);

export interface Rejection {
  status: number;
  message: string;
}

export function checkAuth(request: RecordedRequest, apiKey: string | undefined): Rejection | undefined {
  if (apiKey === undefined) return undefined;
  const header = request.headers["authorization"] ?? "";
  if (header === `Bearer ${apiKey}`) return undefined;
  return { status: 401, message: AUTH_MESSAGE };
}

export function checkBody(request: RecordedRequest): Rejection | undefined {
  const body = request.json;
  if (body === undefined || typeof body !== "object" || body === null || Array.isArray(body)) {
    return { status: 400, message: "Failed to deserialize the JSON body into the target type" };
  }
  const model = body.model;
  if (typeof model !== "string" || !(KNOWN_MODELS.has(model) || model.startsWith("sim-"))) {
    return { status: 400, message: "Model Not Exist" };
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    return {
      status: 400,
      message: "Failed to deserialize the JSON body into the target type: missing field `messages`",
    };
  }
  for (const message of body.messages) {
    if (typeof message !== "object" || message === null || !ROLES.has(message.role)) {
      return {
        status: 400,
        message: "Failed to deserialize the JSON body into the target type: unknown message role",
      };
    }
  }
  return checkToolPairs(body.messages);
}

/** As the API does: each assistant `tool_calls` message is followed by one tool message per call id. */
// deno-lint-ignore no-explicit-any
function checkToolPairs(messages: any[]): Rejection | undefined {
  // deno-lint-ignore no-explicit-any
  let open: Set<any> | undefined;
  for (const message of [...messages, { role: "user" }]) {
    if (message.role === "tool") {
      if (!open?.delete(message.tool_call_id)) {
        return {
          status: 400,
          message: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
        };
      }
      continue;
    }
    if (open && open.size > 0) {
      return {
        status: 400,
        message: "An assistant message with 'tool_calls' must be followed by tool messages responding to " +
          `each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open]}`,
      };
    }
    const calls = message.role === "assistant" && Array.isArray(message.tool_calls) ? message.tool_calls : [];
    // deno-lint-ignore no-explicit-any
    open = new Set(calls.map((call: any) => call?.id));
  }
  return undefined;
}

// deno-lint-ignore no-explicit-any
export function thinkingEnabled(body: any): boolean {
  return body?.thinking?.type !== "disabled";
}

/**
 * Every assistant message with tool calls must carry `reasoning_content`, and where the simulator
 * generated non-empty reasoning for one of its call ids, the exact same string. Strict thinking mode:
 * between two user messages, once such a call was made every assistant message (the final answer
 * too) must carry the key, except a plain reply the simulator itself generated with no reasoning.
 */
export function checkReplay(
  // deno-lint-ignore no-explicit-any
  body: any,
  generated: ReadonlyMap<string, string>,
  unreasoned: ReadonlySet<string> = new Set(),
): Rejection | undefined {
  if (!thinkingEnabled(body)) return undefined;
  const rejection = { status: 400, message: REPLAY_MESSAGE };
  // deno-lint-ignore no-explicit-any
  let span: any[] = [];
  for (const message of [...body.messages, { role: "user" }]) {
    if (message.role === "user") {
      if (!spanReplayed(span, generated, unreasoned)) return rejection;
      span = [];
    } else if (message.role === "assistant") span.push(message);
  }
  return undefined;
}

function spanReplayed(
  // deno-lint-ignore no-explicit-any
  assistants: any[],
  generated: ReadonlyMap<string, string>,
  unreasoned: ReadonlySet<string>,
): boolean {
  let thought = false;
  for (const message of assistants) {
    if (!Array.isArray(message.tool_calls) || message.tool_calls.length === 0) continue;
    if (!Object.hasOwn(message, "reasoning_content")) return false;
    for (const call of message.tool_calls) {
      const expected = generated.get(call?.id);
      if (expected && message.reasoning_content !== expected) return false;
      if (expected) thought = true;
    }
  }
  if (!thought) return true;
  return assistants.every((message) =>
    Object.hasOwn(message, "reasoning_content") ||
    (typeof message.content === "string" && unreasoned.has(message.content))
  );
}

export async function recordRequest(request: Request): Promise<RecordedRequest> {
  const body = await request.text();
  let json: unknown = undefined;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((value, key) => {
    headers[key] = value;
  });
  return { path: new URL(request.url).pathname, headers, body, json };
}
