/**
 * @module
 * One line per finished tool call for `reasonix run`'s text output: what ran and what came of it
 * (`bash node test.js → exit 0, 12 lines`, `✗ edit_file: no match`). The facts come from the call's
 * arguments and the typed data the tool returned, never from the model-facing output text.
 */
import type { ReasonixEvent } from "../../control/mod.ts";
import { diffStat } from "../../lib/diff/stat.ts";
import { escapeControls, stripControls } from "../../lib/terminal_text.ts";

type ToolResultEvent = Extract<ReasonixEvent, { type: "tool_result" }>;
type ToolData = NonNullable<ToolResultEvent["data"]>;

export interface ToolOutcome {
  /** False when the call failed, or ran a command that failed (non-zero exit, timeout, sandbox refusal). */
  ok: boolean;
  /** The line without indent or newline, its model and repository text shown with controls as marks. */
  text: string;
}

/** `args` is the call's JSON arguments as the model wrote them (the tool_call event's), when known. */
export function toolOutcome(event: ToolResultEvent, args: string | undefined): ToolOutcome {
  const name = escapeControls(event.name);
  if (!event.ok) return { ok: false, text: `✗ ${name}: ${clip(stripControls(reasonOf(event)), 300)}` };
  const subject = subjectOf(event.data, args);
  const head = subject ? `${name} ${clip(escapeControls(subject), 80)}` : name;
  const ok = !(event.data?.kind === "bash" && commandFailed(event.data));
  return { ok, text: `${ok ? "✓" : "✗"} ${head} → ${factsOf(event.name, event.data)}` };
}

/** The dispatcher writes a failure as `Error [<code>]: <message>` for the model; the line needs the message. */
function reasonOf(event: ToolResultEvent): string {
  const prefix = event.code ? `Error [${event.code}]: ` : null;
  return prefix && event.output.startsWith(prefix) ? event.output.slice(prefix.length) : event.output;
}

function subjectOf(data: ToolData | undefined, args: string | undefined): string | null {
  const fields = parseArgs(args);
  for (const key of ["command", "pattern", "url", "job_id", "query", "path", "file_path"]) {
    const value = fields[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  if (data && "path" in data) return data.path;
  if (data?.kind === "move") return data.from;
  return null;
}

function factsOf(tool: string, data: ToolData | undefined): string {
  switch (data?.kind) {
    case "bash":
      return bashFacts(data);
    case "job":
      return `job ${data.jobId} ${data.status}${data.exitCode === null ? "" : `, exit ${data.exitCode}`}`;
    case "read": {
      const of = data.totalLines !== null && data.totalLines > data.lines ? ` of ${data.totalLines}` : "";
      return `${count(data.lines, "line")}${of}`;
    }
    case "list":
      return count(data.entries, "entry", "entries");
    case "search":
      return searchFacts(tool, data);
    case "symbols":
      return count(data.matches, "symbol");
    case "diff":
      return diffFacts(data);
    case "move":
      return `moved to ${escapeControls(data.to)}`;
    case "fetch":
      return `${data.status}, ${count(data.bytes, "byte")}`;
    case "todo":
      return `${data.items.filter((item) => item.status === "completed").length}/${data.items.length} done`;
    case "answers":
      return data.outcome;
    case "goal":
      return escapeControls(data.status);
    case undefined:
      return "done";
  }
}

function commandFailed(data: Extract<ToolData, { kind: "bash" }>): boolean {
  return data.exitCode !== 0 || data.timedOut || data.sandboxDenied === true;
}

function bashFacts(data: Extract<ToolData, { kind: "bash" }>): string {
  const end = data.timedOut
    ? "timed out"
    : data.signal
    ? `killed by ${data.signal}`
    : `exit ${data.exitCode ?? "unknown"}`;
  const lines = data.lines === undefined ? "" : `, ${count(data.lines, "line")}`;
  return `${end}${lines}${data.sandboxDenied ? ", blocked by sandbox" : ""}`;
}

function searchFacts(tool: string, data: Extract<ToolData, { kind: "search" }>): string {
  const found = tool === "glob"
    ? count(data.files, "file")
    : `${count(data.matches, "match", "matches")} in ${
      count(data.files, tool === "history" ? "session" : "file")
    }`;
  const skipped = data.skipped ? `, ${data.skipped} skipped` : "";
  return `${found}${skipped}${data.timedOut ? ", timed out" : ""}`;
}

function diffFacts(data: Extract<ToolData, { kind: "diff" }>): string {
  const { added, removed } = diffStat(data.before ?? "", data.after ?? "");
  const stat = `+${added} −${removed}`;
  if (data.before === null) return `created, ${stat}`;
  if (data.after === null) return `deleted, ${stat}`;
  return stat;
}

function parseArgs(args: string | undefined): Record<string, unknown> {
  if (!args) return {};
  try {
    const value = JSON.parse(args);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The first line, cut to `max` characters: the outcome stays one line on the terminal. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max) + "…" : flat;
}
