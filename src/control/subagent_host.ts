/**
 * @module
 * What a conversation's subagents are built from, fixed at boot: the provider and the parent's model
 * (the executor default), the `[agent]` subagent settings, the parent's gate and tool context, where
 * sessions live, and how to make a child's sandbox and registry. The children's tools are the
 * built-ins minus memory, `ask` and plan mode's `submit_plan` (nobody answers a child), narrowed by
 * read-only, `tools` and the profile's `allowed-tools`.
 */
import type { Gate } from "../agent/dispatch.ts";
import type { ProviderConfig, SubagentSettings } from "../config/types.ts";
import type { Effort, Provider } from "../provider/provider.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { builtinTools, PROXIED_TOOLS } from "../tool/builtin/mod.ts";
import { SUBAGENT_TOOLS, subagentTools } from "../tool/builtin/subagents.ts";
import { capabilityTool } from "../tool/capability.ts";
import { ToolRegistry } from "../tool/registry.ts";
import type { ToolContext, ToolSpec } from "../tool/tool.ts";
import { ToolError } from "../tool/tool.ts";

export interface ChildSandbox {
  sandbox: Sandbox;
  /** Whether the OS enforces the writable roots on commands (not the `none` backend). */
  enforced: boolean;
  remove(): Promise<void>;
}

export interface SubagentHost {
  provider: Provider;
  providerConfig: ProviderConfig;
  model: string;
  effort: Effort;
  maxTokens?: number;
  maxSteps: number;
  settings: SubagentSettings;
  sessionsDir: string;
  gate: Gate;
  toolContext: Omit<ToolContext, "signal">;
  /** `[tools] enabled` (empty: all). */
  enabled: readonly string[];
  /** A sandbox whose writable roots are `writable` (plus its own private temp dir). */
  sandboxFor(writable: readonly string[]): Promise<ChildSandbox>;
  now(): Date;
}

const NEVER_IN_CHILD = new Set(["ask", "submit_plan", "update_goal"]);

/** The child's registry: proxied tools stay proxied, so its tools array is the same for every child alike. */
export function childRegistry(
  host: SubagentHost,
  options: { readOnly: boolean; narrow: (readonly string[])[]; nested: boolean },
): ToolRegistry {
  const candidates: ToolSpec[] = [...builtinTools(), ...(options.nested ? subagentTools() : [])];
  const allowed = candidates.filter((spec) =>
    !NEVER_IN_CHILD.has(spec.name) && (!options.readOnly || spec.readOnly || spec.name === "bash") &&
    (host.enabled.length === 0 || host.enabled.includes(spec.name))
  );
  for (const names of options.narrow) {
    const unknown = names.filter((name) =>
      name !== "use_capability" && !candidates.some((s) => s.name === name)
    );
    if (unknown.length > 0) {
      throw new ToolError("subagent.unknown_tools", `Unknown tools for a subagent: ${unknown.join(", ")}`);
    }
  }
  const kept = allowed.filter((spec) => options.narrow.every((names) => names.includes(spec.name)));
  const registry = new ToolRegistry([], { proxied: [...PROXIED_TOOLS, ...SUBAGENT_TOOLS] });
  for (const spec of kept) registry.register(spec);
  registry.register(capabilityTool(registry));
  return registry;
}
