/**
 * @module
 * Resolves a model tool call to the tool that runs: a `use_capability` `call` becomes a call of the
 * inner tool with the same id, so validation, the gate, checkpoints, events and typed data are the
 * direct path's, and faces show the inner tool's card.
 */
import type { ToolCall } from "../provider/provider.ts";
import { capabilityTarget, unknownCapability, USE_CAPABILITY } from "../tool/capability.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { ToolSpec } from "../tool/tool.ts";

export interface ResolvedCall {
  /** The call that runs: the model's own, or the inner call of a proxied one. */
  call: ToolCall;
  spec: ToolSpec | undefined;
  /** Reached through `use_capability`. */
  proxied: boolean;
  /** Set when the proxy call cannot name a tool that runs: reported instead of running anything. */
  failure?: { code: string; message: string };
}

export function resolveCall(call: ToolCall, registry: ToolRegistry): ResolvedCall {
  const direct: ResolvedCall = { call, spec: registry.get(call.function.name), proxied: false };
  if (call.function.name !== USE_CAPABILITY || !direct.spec) return direct;
  const raw = typeof call.function.arguments === "string" ? call.function.arguments : "";
  const target = capabilityTarget(raw);
  if (target === null) return direct;
  if (!target.ok) return { ...direct, failure: { code: target.code, message: target.message } };
  const spec = registry.get(target.name);
  if (!spec) {
    const id = `tool:${target.name}`;
    const { code, message } = unknownCapability(id);
    return { ...direct, failure: { code, message } };
  }
  const inner: ToolCall = { ...call, function: { name: target.name, arguments: target.arguments } };
  return { call: inner, spec, proxied: true };
}

/** A `use_capability` call of a tool not registered yet: a source may still bring it (a lazy MCP server). */
export function awaitsSource(call: ToolCall, registry: ToolRegistry): boolean {
  if (call.function.name !== USE_CAPABILITY) return false;
  const raw = typeof call.function.arguments === "string" ? call.function.arguments : "";
  const target = capabilityTarget(raw);
  return target?.ok === true && registry.get(target.name) === undefined;
}
