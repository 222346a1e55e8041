/**
 * @module
 * How a Reasonix tool call looks to an editor: its ACP kind, a one-line title, the files it touches
 * (absolute, so the editor can follow along) and its result as content (a diff for file changes).
 */
import { isAbsolute, resolve } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { type ApprovalRequest, progressLine, type ReasonixEvent } from "../../control/mod.ts";
import { stripControls } from "../../lib/terminal_text.ts";

type ToolResultEvent = Extract<ReasonixEvent, { type: "tool_result" }>;

const KINDS: Readonly<Record<string, acp.ToolKind>> = {
  read_file: "read",
  ls: "read",
  glob: "search",
  grep: "search",
  code_index: "search",
  edit_file: "edit",
  multi_edit: "edit",
  write_file: "edit",
  notebook_edit: "edit",
  delete_range: "edit",
  delete_symbol: "edit",
  move_file: "move",
  bash: "execute",
  bash_output: "execute",
  kill_shell: "execute",
  wait: "execute",
  web_fetch: "fetch",
  todo_write: "think",
  update_goal: "think",
  complete_step: "think",
};

/** The argument that names what a call works on, in the order they are looked for. */
const SUBJECT_KEYS = ["command", "path", "file_path", "pattern", "url", "query", "from", "job_id"];
const PATH_KEYS = ["path", "file_path", "from", "to", "notebook_path"];
const MAX_TITLE = 200;

export function toolKind(name: string): acp.ToolKind {
  return Object.hasOwn(KINDS, name) ? KINDS[name]! : "other";
}

function parseArgs(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

export function toolTitle(name: string, args: string): string {
  const parsed = parseArgs(args);
  const key = SUBJECT_KEYS.find((k) => typeof parsed[k] === "string" && parsed[k] !== "");
  const subject = key ? stripControls(String(parsed[key])).replace(/\s+/g, " ").trim() : "";
  const title = subject ? `${name}: ${subject}` : name;
  return title.length > MAX_TITLE ? `${title.slice(0, MAX_TITLE - 1)}…` : title;
}

export function toolLocations(args: string, root: string): acp.ToolCallLocation[] {
  const parsed = parseArgs(args);
  const line = typeof parsed.line === "number"
    ? parsed.line
    : typeof parsed.offset === "number"
    ? parsed.offset
    : null;
  return PATH_KEYS.flatMap((key) => typeof parsed[key] === "string" && parsed[key] !== "" ? [key] : [])
    .map((key, index) => ({
      path: absolute(String(parsed[key]), root),
      ...(index === 0 && line !== null ? { line } : {}),
    }));
}

function absolute(path: string, root: string): string {
  return isAbsolute(path) ? path : resolve(root, path);
}

export function toolCallStart(
  event: Extract<ReasonixEvent, { type: "tool_call" }>,
  root: string,
): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call",
    toolCallId: event.callId,
    title: toolTitle(event.name, event.arguments),
    kind: toolKind(event.name),
    status: "in_progress",
    locations: toolLocations(event.arguments, root),
    rawInput: parseArgs(event.arguments),
  };
}

/**
 * A running call's progress: its text as the call's content (the final update replaces it) and the
 * figures under `_meta.reasonix.progress`.
 */
export function toolCallProgress(
  event: Extract<ReasonixEvent, { type: "tool_progress" }>,
): acp.SessionUpdate {
  const { progress, total, message } = event;
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: event.callId,
    status: "in_progress",
    content: [{ type: "content", content: { type: "text", text: progressLine(event) } }],
    _meta: {
      reasonix: {
        progress: {
          ...(progress === undefined ? {} : { progress }),
          ...(total === undefined ? {} : { total }),
          ...(message === undefined ? {} : { message }),
        },
      },
    },
  };
}

export function toolCallEnd(event: ToolResultEvent, root: string): acp.SessionUpdate {
  return {
    sessionUpdate: "tool_call_update",
    toolCallId: event.callId,
    status: event.ok ? "completed" : "failed",
    content: resultContent(event, root),
    ...(event.data?.kind === "diff" ? { locations: [{ path: absolute(event.data.path, root) }] } : {}),
    rawOutput: { output: event.output, ...(event.code ? { code: event.code } : {}) },
  };
}

function resultContent(event: ToolResultEvent, root: string): acp.ToolCallContent[] {
  const data = event.data;
  if (data?.kind === "diff" && event.ok) {
    return [{
      type: "diff",
      path: absolute(data.path, root),
      oldText: data.before,
      newText: data.after ?? "",
    }];
  }
  if (event.output === "") return [];
  return [{ type: "content", content: { type: "text", text: event.output } }];
}

/** The todo list as an ACP plan; null when the result carries none. */
export function planOf(event: ToolResultEvent): acp.SessionUpdate | null {
  if (event.data?.kind !== "todo") return null;
  return {
    sessionUpdate: "plan",
    entries: event.data.items.map((item) => ({
      content: item.content,
      status: item.status,
      priority: "medium",
    })),
  };
}

/** The call an approval is about, as the permission request shows it (with the change's diff). */
export function approvalToolCall(request: ApprovalRequest, root: string): acp.ToolCallUpdate {
  const preview = request.preview;
  return {
    toolCallId: request.callId,
    title: (request.agent ? `[subagent: ${request.agent}] ` : "") +
      toolTitle(request.tool, request.arguments),
    kind: toolKind(request.tool),
    status: "pending",
    locations: toolLocations(request.arguments, root),
    rawInput: parseArgs(request.arguments),
    ...(preview
      ? {
        content: [{
          type: "diff",
          path: absolute(preview.path, root),
          oldText: preview.oldText,
          newText: preview.newText ?? "",
        }],
      }
      : {}),
  };
}
