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
const WEB_FETCH_TOOL = "web_fetch";

export async function callFacts(
  tool: { name: string; readOnly: boolean; ruleGroup?: string },
  args: unknown,
  roots: WorkspaceRoots,
): Promise<CallFacts> {
  const record = typeof args === "object" && args !== null ? args as Record<string, unknown> : {};
  const facts: CallFacts = {
    tool: tool.name,
    readOnly: tool.readOnly,
    subjects: subjectsOf(record, roots.root),
    ...(tool.ruleGroup === undefined ? {} : { group: tool.ruleGroup }),
  };
  if (tool.name === BASH_TOOL && typeof record.command === "string") {
    facts.bash = { command: record.command, judgement: classifyBash(await parseBash(record.command), roots) };
  }
  const host = typeof record.url === "string" ? domainOf(record.url) : null;
  if (tool.name === WEB_FETCH_TOOL && host !== null) facts.webHost = host;
  return facts;
}

export function subjectsOf(args: Record<string, unknown>, root: string): string[] {
  if (typeof args.command === "string") return [args.command];
  const paths = PATH_KEYS.flatMap((key) =>
    typeof args[key] === "string" ? [relativeTo(root, args[key])] : []
  );
  if (paths.length > 0) return paths;
  if (typeof args.url === "string") {
    const host = domainOf(args.url);
    return host === null ? [] : [`domain:${host}`];
  }
  return typeof args.pattern === "string" ? [args.pattern] : [];
}

/** The host `domain:` rules name: lower case, no final dot, IPv6 in brackets; null for a bad URL. */
export function domainOf(url: string): string | null {
  try {
    const host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
    return host === "" ? null : host;
  } catch {
    return null;
  }
}
