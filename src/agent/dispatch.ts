/**
 * @module
 * Runs one batch of model tool calls: parse, validate, gate, execute, truncate, time. Every failure
 * becomes an `Error [<code>]: <message>` result the model can act on; nothing here throws for a bad
 * call. A batch of read-only calls runs concurrently; any writer makes the whole batch sequential.
 */
import { errorMessage } from "../lib/errors.ts";
import { truncateMiddle } from "../lib/head_tail.ts";
import type { ToolCall } from "../provider/provider.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import {
  type PlannedChange,
  type ToolContext,
  type ToolData,
  ToolError,
  type ToolProgress,
  type ToolResult,
  type ToolSpec,
} from "../tool/tool.ts";
import { applyPlanned } from "../tool/planned.ts";
import { invalidArgsMessage, invalidJsonMessage } from "./_dispatch_messages.ts";
import { awaitsSource, resolveCall, type ResolvedCall } from "./_proxy_call.ts";
import { argumentSummary, refreshed } from "../tool/capability.ts";

/** The permission seam: consulted after validation, before execution. */
export interface Gate {
  check(spec: ToolSpec, args: unknown, call?: GateCall): Promise<GateDecision>;
  /** Judges without asking anyone: only what would run right now is allowed (a tool's follow-up step). */
  judge?(spec: ToolSpec, args: unknown): Promise<GateDecision>;
}

/** The call being gated, for approval cards: its id, raw arguments, and the tool context (preview). */
export interface GateCall {
  id: string;
  arguments: string;
  ctx: ToolContext;
  /** A previewing writer's plan, computed at most once: the card shows it and the call applies it. */
  plan?: () => Promise<PlannedChange>;
  /** The subagent making the call (its task, as the parent gave it), for the card; absent: the main agent. */
  agent?: string;
}

/** `waitedMs`: time spent waiting for a person, which the call's duration leaves out. */
export type GateDecision =
  & { waitedMs?: number }
  & ({ allow: true } | { allow: false; code: string; message: string });

export interface CallOutcome {
  callId: string;
  /** The tool that ran (a proxied call's inner tool). */
  name: string;
  /** The tool the model called (`use_capability` for a proxied call): the tool message carries it. */
  calledAs: string;
  ok: boolean;
  /** What the model reads: the tool's output, or `Error [<code>]: <message>`. */
  output: string;
  code?: string;
  durationMs: number;
  truncated: boolean;
  readOnly: boolean;
  /** Epoch milliseconds. */
  startedAt: number;
  /** The tool's typed data, when it ran and reported some. */
  data?: ToolData;
}

export interface DispatchOptions {
  registry: ToolRegistry;
  ctx: ToolContext;
  gate?: Gate;
  onStart?: (call: ToolCall) => void;
  onDone?: (outcome: CallOutcome) => void;
  /** What a running call reports of its progress (the call as `onStart` saw it). */
  onProgress?: (call: ToolCall, update: ToolProgress) => void;
}

interface Settled {
  ok: boolean;
  /** Time the gate waited for a person: not the tool's time. */
  waitedMs?: number;
  output: string;
  code?: string;
  truncated: boolean;
  data?: ToolData;
}

const GENERIC_TRUNCATION_HINT = "ask for a narrower part of the output to see the rest";

/** Runs `calls` and returns one outcome per call, in call order. */
export async function dispatchToolCalls(
  calls: readonly ToolCall[],
  options: DispatchOptions,
): Promise<CallOutcome[]> {
  if (calls.some((call) => awaitsSource(call, options.registry))) {
    await refreshed(options.registry, options.ctx.signal);
  }
  const allReadOnly = calls.every((call) => resolveCall(call, options.registry).spec?.readOnly === true);
  if (allReadOnly) return await Promise.all(calls.map((call) => runCall(call, options)));
  const outcomes: CallOutcome[] = [];
  for (const call of calls) outcomes.push(await runCall(call, options));
  return outcomes;
}

async function runCall(call: ToolCall, options: DispatchOptions): Promise<CallOutcome> {
  const startedAt = Date.now();
  const started = performance.now();
  const resolved = resolveCall(call, options.registry);
  options.onStart?.(resolved.call);
  const spec = resolved.spec;
  const settled = await settle(resolved, options).catch((error: unknown) =>
    failure("tool.failed", errorMessage(error), options.ctx)
  );
  const outcome: CallOutcome = {
    callId: call.id,
    name: resolved.call.function.name,
    calledAs: call.function.name,
    ok: settled.ok,
    output: settled.output,
    ...(settled.code === undefined ? {} : { code: settled.code }),
    durationMs: Math.max(0, Math.round(performance.now() - started - (settled.waitedMs ?? 0))),
    truncated: settled.truncated,
    readOnly: spec?.readOnly ?? false,
    startedAt,
    ...(settled.data ? { data: settled.data } : {}),
  };
  options.onDone?.(outcome);
  return outcome;
}

async function settle(resolved: ResolvedCall, options: DispatchOptions): Promise<Settled> {
  const { ctx, registry } = options;
  const { call, spec } = resolved;
  if (ctx.signal.aborted) {
    return failure("tool.aborted", "Not run: the turn was interrupted before this call started", ctx);
  }
  if (resolved.failure) return failure(resolved.failure.code, resolved.failure.message, ctx);
  if (!spec) return failure("tool.unknown", unknownToolMessage(call.function.name, registry), ctx);
  const raw = typeof call.function.arguments === "string" ? call.function.arguments : "";
  let input: unknown;
  try {
    input = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch (error) {
    return failure("tool.invalid_json", invalidJsonMessage(spec.name, raw, errorMessage(error)), ctx);
  }
  const checked = spec.parameters.safeParse(input);
  if (!checked.success) {
    const message = invalidArgsMessage(spec.name, input, {
      issues: checked.error.issues,
      required: registry.requiredArgs(spec.name),
      // A tool outside the tools array was called without its schema in view.
      ...(registry.isProxied(spec.name) ? { schema: argumentSummary(registry, spec.name) } : {}),
    });
    return failure("tool.invalid_args", message, ctx);
  }
  let waitedMs = 0;
  const settled = await (async (): Promise<Settled> => {
    const plan = planOnce(spec, checked.data, ctx);
    const decision = options.gate
      ? await options.gate.check(spec, checked.data, { id: call.id, arguments: raw, ctx, ...plan })
      : { allow: true as const };
    waitedMs = decision.waitedMs ?? 0;
    if (!decision.allow) return failure(decision.code, decision.message, ctx);
    const toolCtx = {
      ...withProgress(withPermits(ctx, spec, options.gate), call, options.onProgress),
      callId: call.id,
    };
    const result = plan.plan
      ? await applyPlanned(await plan.plan(), toolCtx)
      : await spec.execute(checked.data, toolCtx);
    return finish(result, spec, ctx);
  })().catch((error: unknown) => thrown(error, ctx));
  return { ...settled, waitedMs };
}

function thrown(error: unknown, ctx: ToolContext): Settled {
  if (error instanceof ToolError) return failure(error.code, error.message, ctx);
  if (error instanceof Deno.errors.NotCapable) return failure("tool.fenced", fencedMessage(error), ctx);
  if (ctx.signal.aborted) return failure("tool.aborted", "Interrupted before the call finished", ctx);
  return failure("tool.failed", errorMessage(error), ctx);
}

/** Planned lazily, so a refused call is judged before its file is read, and never twice. */
function planOnce(
  spec: ToolSpec,
  args: unknown,
  ctx: ToolContext,
): { plan?: () => Promise<PlannedChange> } {
  const make = spec.plan;
  if (!make) return {};
  let planned: Promise<PlannedChange> | undefined;
  return { plan: () => planned ??= make(args, ctx) };
}

function withPermits(ctx: ToolContext, spec: ToolSpec, gate: Gate | undefined): ToolContext {
  const judge = gate?.judge?.bind(gate);
  if (!judge) return ctx;
  return {
    ...ctx,
    permits: async (args) => {
      const decision = await judge(spec, args);
      return decision.allow ? null : decision.message;
    },
  };
}

/** A call's progress reaches the faces at most this often; reports in between are dropped. */
const PROGRESS_INTERVAL_MS = 100;

function withProgress(
  ctx: ToolContext,
  call: ToolCall,
  report: DispatchOptions["onProgress"],
): ToolContext {
  if (!report) return ctx;
  let last = -Infinity;
  return {
    ...ctx,
    onProgress: (update) => {
      const now = performance.now();
      if (now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      report(call, update);
    },
  };
}

/** What the fence allows, by the access Deno says was missing. */
const FENCE_LIMITS: Record<string, string> = {
  write: "Reasonix may only write inside the workspace and its extra roots",
  read: "Reasonix may not read this path",
  // Deno guards files such as /proc/self/environ and /dev/mem with "all" access: they expose the
  // process's secrets, so no read permission short of everything covers them.
  all: "Reasonix never reads files that expose the process itself (such as /proc/self/environ)",
  net: "Reasonix may only reach the provider hosts (and any host when web_fetch is enabled)",
  run: "Reasonix may only run bash, git, rg and the sandbox and clipboard tools",
};

/** Deno's own wording ("run again with --allow-write") would send the model after a flag it cannot set. */
function fencedMessage(error: Error): string {
  const access = /Requires (\w+) access/.exec(error.message)?.[1] ?? "";
  const limit = FENCE_LIMITS[access] ?? "the fence does not grant this";
  return `The Deno permission fence stopped this call (${error.name}: ${
    error.message.replace(/, run again.*$/, "")
  }); ${limit}`;
}

function unknownToolMessage(name: string, registry: ToolRegistry): string {
  const names = registry.directNames();
  const available = names.length > 0 ? names.join(", ") : "none";
  const proxied = registry.proxiedNames().length > 0
    ? ` (more through use_capability: ${registry.proxiedNames().join(", ")})`
    : "";
  return `There is no tool named "${name}"; the available tools are: ${available}${proxied}`;
}

function failure(code: string, message: string, ctx: ToolContext): Settled {
  return { ok: false, code, ...budget(`Error [${code}]: ${message}`, ctx, undefined) };
}

function finish(result: ToolResult, spec: ToolSpec, ctx: ToolContext): Settled {
  const data = result.data ? { data: result.data } : {};
  if (result.truncated) return { ok: true, output: result.output, truncated: true, ...data };
  return { ok: true, ...budget(result.output, ctx, spec.truncationHint), ...data };
}

function budget(
  output: string,
  ctx: ToolContext,
  hint: string | undefined,
): { output: string; truncated: boolean } {
  const limit = ctx.limits.outputBudgetBytes;
  // Cheap pre-check: a UTF-8 encoding is at most 3 bytes per UTF-16 code unit.
  if (limit <= 0 || output.length * 3 <= limit) return { output, truncated: false };
  const cut = truncateMiddle(output, limit, {
    marker: (omitted, total) =>
      `[... ${omitted} bytes omitted of ${total}; ${hint ?? GENERIC_TRUNCATION_HINT} ...]`,
  });
  return { output: cut.text, truncated: cut.omittedBytes > 0 };
}
