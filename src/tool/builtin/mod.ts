/**
 * @module
 * The one explicit list of built-in tools. Importing a tool module registers nothing; the
 * Controller builds its registry from this list.
 */
import type { ToolSpec } from "../tool.ts";
import { bashTool } from "./bash.ts";
import { editFileTool } from "./edit_file.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { lsTool } from "./ls.ts";
import { readFileTool } from "./read_file.ts";
import { writeFileTool } from "./write_file.ts";

export function builtinTools(): ToolSpec[] {
  return [readFileTool, writeFileTool, editFileTool, lsTool, globTool, grepTool, bashTool] as ToolSpec[];
}
