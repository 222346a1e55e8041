/**
 * @module
 * Remembered facts: the store, the `remember` / `forget` / `memory` tools, the index the session
 * context carries and the recall that rides a turn's tail (docs/MEMORY.md).
 */
import type { ToolRegistry } from "../registry.ts";
import type { ToolSpec } from "../tool.ts";
import { forgetTool } from "./forget.ts";
import { memoryTool } from "./memory.ts";
import { rememberTool } from "./remember.ts";

export const MEMORY_TOOLS: readonly string[] = ["forget", "memory", "remember"];

export function memoryTools(): ToolSpec[] {
  return [forgetTool, memoryTool, rememberTool] as ToolSpec[];
}

/**
 * Adds the memory tools behind `use_capability`. Registered after the system prompt's list of proxied
 * tools was taken, so the request prefix of a session is the same bytes with or without them; the
 * index block names them when anything is remembered (docs/MEMORY.md, "Why proxied").
 */
export function registerMemoryTools(registry: ToolRegistry): void {
  for (const tool of memoryTools()) if (!registry.has(tool.name)) registry.register(tool, { proxied: true });
}
