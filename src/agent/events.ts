/**
 * @module
 * The typed events a turn produces; the Controller forwards them to every frontend.
 * Fields are camelCase and `type` is the discriminant, so a new face is only a translator.
 */
import type { AssistantMessage, Usage } from "../provider/provider.ts";

export type TurnSubtype = "success" | "error_during_execution" | "error_max_steps";

export interface ErrorInfo {
  code: string;
  message: string;
  hint?: string;
}

export type ReasonixEvent =
  | { type: "session_started"; sessionId: string; resumed: boolean; model: string; provider: string }
  | { type: "turn_started"; turn: number; text: string }
  | { type: "reasoning"; text: string }
  | { type: "text"; text: string }
  | { type: "retrying"; attempt: number; maxAttempts: number; delayMs: number; reason: string }
  | { type: "tool_call"; callId: string; name: string; arguments: string; readOnly: boolean }
  | {
    type: "tool_result";
    callId: string;
    name: string;
    ok: boolean;
    output: string;
    code?: string;
    durationMs: number;
    readOnly: boolean;
  }
  | { type: "message"; message: AssistantMessage }
  | {
    type: "usage";
    request: number;
    model: string;
    usage: Usage;
    hitRatio: number;
    cost: number | null;
    currency: string | null;
  }
  | {
    type: "compaction";
    beforeTokens: number;
    afterTokens: number;
    reason: "context_limit" | "manual";
  }
  | { type: "turn_done"; subtype: TurnSubtype; result: string; error?: ErrorInfo }
  | { type: "warning"; message: string };

export type EventListener = (event: ReasonixEvent) => void;

export type Op =
  | { type: "user_turn"; text: string }
  | { type: "interrupt" };
