/**
 * @module
 * The one explicit list of built-in tools. Importing a tool module registers nothing; the
 * Controller builds its registry from this list.
 */
import type { ToolSpec } from "../tool.ts";
import { capabilityTool } from "../capability.ts";
import { ToolRegistry, type ToolRegistryOptions } from "../registry.ts";
import { askTool } from "./ask.ts";
import { bashTool } from "./bash.ts";
import { bashOutputTool } from "./bash_output.ts";
import { codeIndexTool } from "./code_index.ts";
import { completeStepTool } from "./complete_step.ts";
import { deleteSymbolTool } from "./delete_symbol.ts";
import { deleteRangeTool } from "./delete_range.ts";
import { editFileTool } from "./edit_file.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { killShellTool } from "./kill_shell.ts";
import { lsTool } from "./ls.ts";
import { moveFileTool } from "./move_file.ts";
import { multiEditTool } from "./multi_edit.ts";
import { notebookEditTool } from "./notebook_edit.ts";
import { readFileTool } from "./read_file.ts";
import { todoWriteTool } from "./todo_write.ts";
import { updateGoalTool } from "./update_goal.ts";
import { waitTool } from "./wait.ts";
import { webFetchTool } from "./web_fetch.ts";
import { writeFileTool } from "./write_file.ts";
import { submitPlanTool } from "./submit_plan.ts";

export function builtinTools(): ToolSpec[] {
  return [
    readFileTool,
    writeFileTool,
    editFileTool,
    deleteSymbolTool,
    multiEditTool,
    moveFileTool,
    deleteRangeTool,
    notebookEditTool,
    lsTool,
    globTool,
    grepTool,
    codeIndexTool,
    bashTool,
    bashOutputTool,
    waitTool,
    killShellTool,
    webFetchTool,
    todoWriteTool,
    completeStepTool,
    askTool,
  ] as ToolSpec[];
}

/**
 * The built-ins left out of the tools array and reached through `use_capability`: each costs more on
 * every session's first request than the extra step a session that needs it pays (docs/PERFORMANCE.md,
 * "Base tool list"; `deno run -A scripts/measure_tools.ts` prints the figures). Sorted.
 */
export const PROXIED_TOOLS: readonly string[] = [
  "bash_output",
  "code_index",
  "complete_step",
  "delete_range",
  "delete_symbol",
  "glob",
  "kill_shell",
  "ls",
  "move_file",
  "multi_edit",
  "notebook_edit",
  "wait",
  "web_fetch",
];

/** The session's registry: the built-ins (and an embedder's extra tools, sent directly) plus the proxy. */
export function builtinRegistry(
  extraTools: readonly ToolSpec[] = [],
  options: Omit<ToolRegistryOptions, "proxied"> = {},
): ToolRegistry {
  const registry = new ToolRegistry([...builtinTools(), ...extraTools], {
    ...options,
    proxied: PROXIED_TOOLS,
  });
  // Plan mode's way out is reached through use_capability, so the tools array is the same in every mode.
  registry.register(submitPlanTool, { proxied: true });
  // Goal mode's report is proxied too: a goal starting mid-session leaves the tools array as it was.
  registry.register(updateGoalTool as ToolSpec, { proxied: true });
  registry.register(capabilityTool(registry));
  return registry;
}

/** The proxied tools only one mode uses; the system prompt leaves them out (the mode's note names them). */
export const MODE_TOOLS: readonly string[] = ["submit_plan", "update_goal"];
