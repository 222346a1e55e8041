/**
 * @module
 * `/export`: the conversation as Markdown. User and assistant turns in full, each tool call as one
 * summary line, the system prompt and session-context message left out with a note saying so.
 */
import { t } from "../lib/i18n/mod.ts";
import type { ChatMessage, ToolCall } from "../provider/provider.ts";
import { isTransientBlock, SUMMARY_OPEN } from "../agent/compaction.ts";
import { shownCall } from "../tool/capability.ts";

export interface ExportMeta {
  sessionId: string;
  model: string;
  title: string | null;
  exportedAt: Date;
}

const CONTEXT_OPEN = "<session-context";
const TURN_NOTES = /\n\n<turn-context>\n[\s\S]*\n<\/turn-context>$/;
const KEY_ARGUMENTS = ["path", "command", "pattern", "query", "url", "file_path"];
const ARGUMENT_SHOWN = 80;

export function conversationMarkdown(history: readonly ChatMessage[], meta: ExportMeta): string {
  const results = new Map<string, string>();
  for (const message of history) {
    if (message.role === "tool") results.set(message.tool_call_id, message.content);
  }
  const blocks = [
    `# ${meta.title ?? t("session.export_title", { id: meta.sessionId })}`,
    t("session.export_meta", { id: meta.sessionId, model: meta.model, at: meta.exportedAt.toISOString() }),
    `> ${t("session.export_note")}`,
  ];
  for (const message of history) blocks.push(...messageBlocks(message, results));
  return blocks.join("\n\n") + "\n";
}

function messageBlocks(message: ChatMessage, results: ReadonlyMap<string, string>): string[] {
  if (message.role === "user") {
    if (message.content.startsWith(CONTEXT_OPEN)) return [];
    if (message.content.startsWith(SUMMARY_OPEN) || isTransientBlock(message)) {
      return [`## ${t("session.export_summary")}`, quote(message.content)];
    }
    return [`## ${t("session.export_user")}`, message.content.replace(TURN_NOTES, "")];
  }
  if (message.role !== "assistant") return [];
  const blocks: string[] = [];
  if (message.content?.trim()) blocks.push(`## ${t("session.export_assistant")}`, message.content.trim());
  if (message.tool_calls?.length) {
    blocks.push(message.tool_calls.map((call) => toolLine(call, results.get(call.id))).join("\n"));
  }
  return blocks;
}

function toolLine(call: ToolCall, result: string | undefined): string {
  const shown = shownCall(call.function);
  const argument = keyArgument(shown.arguments);
  const head = `- \`${shown.name}\`${argument ? ` ${argument}` : ""}`;
  if (result === undefined) return `${head} — ${t("session.export_no_result")}`;
  const lines = result === "" ? 0 : result.split("\n").length;
  return `${head} — ${t("session.export_result_lines", { count: lines })}`;
}

function keyArgument(json: string): string {
  let args: unknown;
  try {
    args = JSON.parse(json);
  } catch {
    return "";
  }
  if (typeof args !== "object" || args === null) return "";
  const record = args as Record<string, unknown>;
  const key = KEY_ARGUMENTS.find((name) => typeof record[name] === "string");
  const value = key ? record[key] as string : Object.values(record).find((v) => typeof v === "string");
  if (typeof value !== "string") return "";
  const line = value.split("\n")[0]!;
  const shown = line.length > ARGUMENT_SHOWN ? `${line.slice(0, ARGUMENT_SHOWN)}…` : line;
  return `\`${shown.replaceAll("`", "'")}\``;
}

function quote(text: string): string {
  return text.split("\n").map((line) => `> ${line}`.trimEnd()).join("\n");
}
