/**
 * @module
 * The user message a turn starts with: the text, the files and MCP resources it mentions, and the notes
 * that ride the tail of the conversation (tools that came since, files changed outside, the to-do list,
 * remembered facts the text recalls).
 * The facts those notes were drawn from are recorded so a resumed session knows them.
 */
import { todoReminder, withTurnNotes } from "../prompt/facts.ts";
import type { ChatMessage } from "../provider/provider.ts";
import type { ControllerParts } from "./controller_parts.ts";
import type { FileNotices } from "./file_notices.ts";
import { withMentions } from "./mentions.ts";
import { FACTS_EVENT } from "./session_open.ts";
import { TOOLS_EVENT } from "../session/requests.ts";
import { turnAttachments, type TurnOptions } from "./turn_attachments.ts";

export async function appendUserTurn(
  parts: ControllerParts,
  files: FileNotices,
  text: string,
  options: TurnOptions,
): Promise<void> {
  const todos = todoReminder(parts.toolContext.state?.todos ?? []);
  const recalled = await parts.recallMemory?.(text) ?? null;
  const notes = [
    ...(parts.turnNotes ?? []),
    ...await files.changes(),
    ...(todos ? [todos] : []),
    ...(recalled ? [recalled] : []),
  ];
  const mentioned = await turnAttachments(text, parts, options);
  for (const file of mentioned.files) files.seen(file);
  const message: ChatMessage = {
    role: "user",
    content: withTurnNotes(withMentions(text, [...mentioned.blocks, ...options.pins ?? []]), notes),
  };
  await parts.log.append({ type: "message", message });
  if (parts.turnNotes?.length && parts.turnFacts !== undefined) {
    await parts.log.append({ type: "event", name: FACTS_EVENT, data: parts.turnFacts, at: nowIso(parts) });
  }
  parts.turnNotes = [];
}

export function nowIso(parts: ControllerParts): string {
  return (parts.now ?? (() => new Date()))().toISOString();
}

/**
 * Records the tools array a request carries when it differs from the last one recorded (`reasonix cache
 * explain` needs the schema bytes each request carried; they change only on upgrades); returns it.
 */
export async function recordToolsJson(parts: ControllerParts, last: string | undefined): Promise<string> {
  await parts.toolsReady?.();
  const json = parts.registry.toolsJson();
  if (json === last) return json;
  await parts.log.append({ type: "event", name: TOOLS_EVENT, data: { json }, at: nowIso(parts) });
  return json;
}
