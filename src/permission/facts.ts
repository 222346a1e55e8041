/**
 * @module
 * Turns a tool call into the facts the policy judges: the subjects its arguments name (by the known
 * keys, so a new tool needs no policy change) and, for bash, the parsed and classified command line.
 */
import { parseBash } from "./bash_parse.ts";
import { classifyBash, type WorkspaceRoots } from "./bash_classify.ts";
import type { CallFacts } from "./evaluate.ts";
import { relativeTo } from "./_paths.ts";

const PATH_KEYS = ["path", "file_path", "source_path", "destination_path", "notebook_path"];
const BASH_TOOL = "bash";

export async function callFacts(
  tool: { name: string; readOnly: boolean },
  args: unknown,
  roots: WorkspaceRoots,
): Promise<CallFacts> {
  const record = typeof args === "object" && args !== null ? args as Record<string, unknown> : {};
  const facts: CallFacts = {
    tool: tool.name,
    readOnly: tool.readOnly,
    subjects: subjectsOf(record, roots.root),
  };
  if (tool.name === BASH_TOOL && typeof record.command === "string") {
    facts.bash = { command: record.command, judgement: classifyBash(await parseBash(record.command), roots) };
  }
  return facts;
}

export function subjectsOf(args: Record<string, unknown>, root: string): string[] {
  if (typeof args.command === "string") return [args.command];
  const paths = PATH_KEYS.flatMap((key) =>
    typeof args[key] === "string" ? [relativeTo(root, args[key])] : []
  );
  if (paths.length > 0) return paths;
  return typeof args.pattern === "string" ? [args.pattern] : [];
}
