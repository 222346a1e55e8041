/**
 * @module
 * One user turn: stream a model call, run its tool calls, feed the results back, repeat until the
 * model answers without tools, the step budget runs out, or the turn is aborted. Every message is
 * persisted before the next request, so a crash or a provider fault never loses the session.
 */
import type { ReasonixEvent, TurnSubtype } from "./events.ts";
import type {
  AssistantMessage,
  ChatMessage,
  ChatResult,
  Effort,
  Provider,
  StreamEvent,
  ToolCall,
  ToolMessage,
} from "../provider/provider.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { ToolContext } from "../tool/tool.ts";
import { type CallOutcome, dispatchToolCalls, type Gate } from "./dispatch.ts";
import type { ToolOutcomeMeta } from "../session/store.ts";
import { steerMessage, type SteerSource } from "./steer.ts";
import { hostNote } from "./host_note.ts";

/** Used when `max_steps` is 0 ("auto"): a runaway loop still ends. */
export const AUTO_MAX_STEPS = 200;

export const STEP_LIMIT_NOTE = "[step limit reached] Do not call any more tools. Answer now with what you " +
  "have: what you did, what you found, and what is left.";

export interface TurnLoopOptions {
  provider: Provider;
  model: string;
  effort: Effort;
  maxTokens?: number;
  registry: ToolRegistry;
  toolContext: ToolContext;
  gate: Gate;
  maxSteps: number;
  signal: AbortSignal;
  history: () => readonly ChatMessage[];
  /** Persists a message durably (with how its tool call ended), then adds it to the history. */
  append: (message: ChatMessage, tool?: ToolOutcomeMeta) => Promise<void>;
  onModelCall: (result: ChatResult) => Promise<void>;
  emit: (event: ReasonixEvent) => void;
  /** Runs between the requests of a turn, after every tool result is in (compaction hooks in here). */
  beforeNextCall?: () => Promise<void>;
  /** Text the person sent mid-turn (steer.ts): it goes on the tail before the next request. */
  steer?: SteerSource;
  /**
   * A host policy's look at a final answer (verified delivery): a returned note refuses the answer, goes
   * on the tail as a host note, and the loop runs on; null accepts it. The policy bounds its refusals.
   */
  reviewAnswer?: (answer: string) => string | null;
}

export interface TurnLoopResult {
  subtype: TurnSubtype;
  result: string;
  modelCalls: number;
  toolCalls: number;
}

export async function runTurnLoop(options: TurnLoopOptions): Promise<TurnLoopResult> {
  const limit = options.maxSteps > 0 ? options.maxSteps : AUTO_MAX_STEPS;
  let steps = 0;
  let modelCalls = 0;
  let toolCalls = 0;
  let overLimit = false;
  while (true) {
    if (modelCalls > 0) {
      await options.beforeNextCall?.();
      const steering = options.steer?.take();
      if (steering) await steer(options, steering);
    }
    const reply = await callModel(options);
    modelCalls++;
    const calls = reply.tool_calls ?? [];
    if (calls.length === 0) {
      // Steering that came during the final answer gets its request: the model answers it in this turn.
      if (options.steer?.pending()) continue;
      const refused = options.reviewAnswer?.(reply.content ?? "");
      if (refused) {
        await options.append({ role: "user", content: hostNote(refused) });
        continue;
      }
      return { subtype: "success", result: reply.content ?? "", modelCalls, toolCalls };
    }
    if (overLimit) {
      await answerUnrun(options, calls, "Not run: the step limit was reached");
      return { subtype: "error_max_steps", result: stepLimitMessage(limit), modelCalls, toolCalls };
    }
    await runTools(options, calls);
    toolCalls += calls.length;
    steps++;
    if (steps >= limit) {
      overLimit = true;
      await options.append({ role: "user", content: STEP_LIMIT_NOTE });
    }
  }
}

async function steer(options: TurnLoopOptions, texts: string[]): Promise<void> {
  await options.append({ role: "user", content: steerMessage(texts) });
  options.emit({ type: "steered", text: texts.join("\n\n") });
}

function stepLimitMessage(limit: number): string {
  return `Stopped after ${limit} tool rounds (--max-steps): the model kept calling tools after it was asked ` +
    `to answer. Raise --max-steps or split the task`;
}

async function callModel(options: TurnLoopOptions): Promise<AssistantMessage> {
  const result = await options.provider.stream({
    model: options.model,
    messages: options.history(),
    toolsJson: options.registry.toolsJson(),
    effort: options.effort,
    ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
  }, { signal: options.signal, onEvent: (event) => forwardStreamEvent(options, event) });
  await options.append(result.message);
  options.emit({ type: "message", message: result.message });
  await options.onModelCall(result);
  return result.message;
}

function forwardStreamEvent(options: TurnLoopOptions, event: StreamEvent): void {
  if (event.type === "reasoning" || event.type === "text") options.emit(event);
  if (event.type === "retry") {
    const { attempt, maxAttempts, delayMs, reason } = event;
    options.emit({ type: "retrying", attempt, maxAttempts, delayMs, reason });
  }
}

async function runTools(options: TurnLoopOptions, calls: ToolCall[]): Promise<void> {
  const outcomes = await dispatchToolCalls(calls, {
    registry: options.registry,
    ctx: options.toolContext,
    gate: options.gate,
    onStart: (call) => {
      options.emit({
        type: "tool_call",
        callId: call.id,
        name: call.function.name,
        arguments: call.function.arguments,
        readOnly: options.registry.get(call.function.name)?.readOnly ?? false,
      });
    },
    onDone: (outcome) => options.emit(toolResultEvent(outcome)),
    onProgress: (call, update) =>
      options.emit({ type: "tool_progress", callId: call.id, name: call.function.name, ...update }),
  });
  for (const outcome of outcomes) await options.append(toolMessage(outcome), toolMeta(outcome));
}

function toolResultEvent(outcome: CallOutcome): ReasonixEvent {
  return {
    type: "tool_result",
    callId: outcome.callId,
    name: outcome.name,
    ok: outcome.ok,
    output: outcome.output,
    ...(outcome.code ? { code: outcome.code } : {}),
    durationMs: outcome.durationMs,
    readOnly: outcome.readOnly,
    ...(outcome.data ? { data: outcome.data } : {}),
  };
}

function toolMeta(outcome: CallOutcome): ToolOutcomeMeta {
  return {
    ok: outcome.ok,
    ...(outcome.code ? { code: outcome.code } : {}),
    durationMs: outcome.durationMs,
    readOnly: outcome.readOnly,
    ...(outcome.data ? { data: outcome.data } : {}),
  };
}

function toolMessage(outcome: CallOutcome): ToolMessage {
  return { role: "tool", content: outcome.output, tool_call_id: outcome.callId, name: outcome.calledAs };
}

/** Every tool call must have a result, or the provider rejects the next request of the session. */
export async function answerUnrun(
  options: Pick<TurnLoopOptions, "append">,
  calls: readonly ToolCall[],
  reason: string,
): Promise<void> {
  for (const call of calls) {
    await options.append({ role: "tool", content: reason, tool_call_id: call.id, name: call.function.name });
  }
}
