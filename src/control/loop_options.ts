/**
 * @module
 * What one turn's agent loop runs with: the session's parts, plus the Controller's hooks for what the
 * loop reports (messages, model calls, events) and asks for (compaction, steering).
 */
import type { ChatMessage, ChatResult } from "../provider/provider.ts";
import type { ToolOutcomeMeta } from "../session/store.ts";
import type { ReasonixEvent } from "./events.ts";
import type { ControllerParts } from "./controller_parts.ts";
import type { Steering } from "./steering.ts";

export interface LoopHooks {
  append(message: ChatMessage, tool?: ToolOutcomeMeta): Promise<void>;
  onModelCall(result: ChatResult): Promise<void>;
  emit(event: ReasonixEvent): void;
  beforeNextCall(): Promise<void>;
  steer: Steering;
}

export function loopOptionsOf(parts: ControllerParts, signal: AbortSignal, hooks: LoopHooks) {
  return {
    provider: parts.provider,
    model: parts.model,
    effort: parts.effort,
    ...(parts.maxTokens ? { maxTokens: parts.maxTokens } : {}),
    registry: parts.registry,
    toolContext: { ...parts.toolContext, signal },
    gate: parts.gate,
    maxSteps: parts.maxSteps,
    signal,
    history: () => parts.log.messages(),
    ...hooks,
  };
}
