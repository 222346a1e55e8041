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
  return undefined;
}

// deno-lint-ignore no-explicit-any
export function thinkingEnabled(body: any): boolean {
  return body?.thinking?.type !== "disabled";
}

/**
 * Every assistant message with tool calls must carry `reasoning_content`, and where the simulator
 * generated non-empty reasoning for one of its call ids, the exact same string.
 */
export function checkReplay(
  // deno-lint-ignore no-explicit-any
  body: any,
  generated: ReadonlyMap<string, string>,
): Rejection | undefined {
  if (!thinkingEnabled(body)) return undefined;
  for (const message of body.messages) {
    if (
      message.role !== "assistant" || !Array.isArray(message.tool_calls) || message.tool_calls.length === 0
    ) continue;
    const rejection = { status: 400, message: REPLAY_MESSAGE };
    if (!Object.hasOwn(message, "reasoning_content")) return rejection;
    for (const call of message.tool_calls) {
      const expected = generated.get(call?.id);
      if (expected && message.reasoning_content !== expected) return rejection;
    }
  }
  return undefined;
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
