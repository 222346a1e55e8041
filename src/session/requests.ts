/**
 * @module
 * Rebuilds, from a session's records, what each model request contained: the input messages, the
 * tool schemas in force, the output, and the usage the provider reported for it.
 */
import type { AssistantMessage, ChatMessage, Usage } from "../provider/provider.ts";
import { resetsHistory, type SessionRecord } from "./store.ts";

/** The event name under which the Controller records the tool schema bytes when they change. */
export const TOOLS_EVENT = "tools";

export interface RecordedRequest {
  /** 1-based, in the order the requests were made. */
  index: number;
  input: ChatMessage[];
  output: AssistantMessage;
  /** The canonical tools JSON in force, when the session recorded it. */
  toolsJson?: string;
  usage?: Usage;
  model?: string;
  /** When the answer was received (ISO 8601), from the usage record. */
  at?: string;
  /** Set when a compaction replaced the history before this request: its reason. */
  reset?: string;
}

export function recordedRequests(records: readonly SessionRecord[]): RecordedRequest[] {
  const requests: RecordedRequest[] = [];
  const messages: ChatMessage[] = [];
  let toolsJson: string | undefined;
  let pending: RecordedRequest | null = null;
  let reset: string | undefined;
  for (const record of records) {
    if (resetsHistory(record)) {
      messages.splice(0, messages.length, ...record.messages);
      reset = record.type === "compaction" ? `compaction (${record.reason})` : record.type;
      pending = null;
    }
    if (record.type === "event" && record.name === TOOLS_EVENT) toolsJson = toolsFrom(record.data);
    if (record.type === "usage" && pending) {
      requests.push({ ...pending, usage: record.usage, model: record.model, at: record.at });
      pending = null;
    }
    if (record.type !== "message") continue;
    pending = null;
    if (record.message.role === "assistant") {
      pending = {
        index: requests.length + 1,
        input: [...messages],
        output: record.message,
        ...(toolsJson !== undefined ? { toolsJson } : {}),
        ...(reset !== undefined ? { reset } : {}),
      };
      reset = undefined;
    }
    messages.push(record.message);
  }
  return requests;
}

function toolsFrom(data: unknown): string | undefined {
  const json = (data as { json?: unknown } | undefined)?.json;
  return typeof json === "string" ? json : undefined;
}
