/**
 * @module
 * The `[agent]` keys for subagents of one config file: limits (range-checked by the schema) and the
 * models and efforts by profile. `max_parallel_writers` above `max_subagent_concurrency` in the same
 * file is a config error at the writers key; across files the runner keeps writers within the total.
 */
import { normalizeEffort } from "../provider/effort.ts";
import type { Effort } from "../provider/provider.ts";
import { configError } from "./schema.ts";
import type { CheckContext } from "./schema.ts";
import type { SubagentSettings } from "./types.ts";

type Raw = Record<string, unknown>;

export function subagentSettings(agent: Raw, context: CheckContext): SubagentSettings | undefined {
  const settings: SubagentSettings = {};
  const depth = agent.max_subagent_depth;
  const total = agent.max_subagent_concurrency;
  const writers = agent.max_parallel_writers;
  if (typeof depth === "number") settings.maxDepth = depth;
  if (typeof total === "number") settings.maxConcurrency = total;
  if (typeof writers === "number") settings.maxParallelWriters = writers;
  if (typeof total === "number" && typeof writers === "number" && writers > total) {
    throw configError(
      context,
      ["agent", "max_parallel_writers"],
      `Cannot read "agent.max_parallel_writers": ${writers} is more than agent.max_subagent_concurrency (${total})`,
    );
  }
  if (typeof agent.subagent_model === "string") settings.model = agent.subagent_model.trim();
  if (typeof agent.subagent_effort === "string") settings.effort = normalizeEffort(agent.subagent_effort);
  const models = stringMap(agent.subagent_models, (value) => value.trim());
  if (models) settings.models = models;
  const efforts = stringMap(agent.subagent_efforts, (value): Effort => normalizeEffort(value));
  if (efforts) settings.efforts = efforts;
  return Object.keys(settings).length > 0 ? settings : undefined;
}

function stringMap<T>(value: unknown, map: (value: string) => T): Record<string, T> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const out: Record<string, T> = {};
  for (const [key, item] of Object.entries(value as Raw)) if (typeof item === "string") out[key] = map(item);
  return Object.keys(out).length > 0 ? out : undefined;
}
