/**
 * @module
 * `/agents show <id>`: a subagent's transcript, from its own session file. Only a child this
 * conversation started (its id as `/agents` or `/tree` lists it) is read, never any other session.
 */
import { dirname, join } from "node:path";
import { t } from "../../lib/i18n/mod.ts";
import { escapeControls } from "../../lib/terminal_text.ts";
import { loadSession } from "../../session/store.ts";
import { conversationMarkdown } from "../export_markdown.ts";
import type { CommandContext } from "./registry.ts";

export async function showChildTranscript(ctx: CommandContext, id: string): Promise<void> {
  const known = await ctx.host.workspaceOps?.subagents?.known() ?? [];
  const child = known.find((summary) => summary.sessionId === id);
  if (!child) return ctx.print(t("agents.unknown", { id: escapeControls(id) }));
  const file = join(dirname(ctx.host.sessionFile), `${child.sessionId}.jsonl`);
  const session = await loadSession(file).catch(() => null);
  if (!session) return ctx.print(t("agents.unreadable", { id: child.sessionId }));
  const markdown = conversationMarkdown(session.messages, {
    sessionId: child.sessionId,
    model: session.header.model,
    title: `${child.description.replace(/\s+/g, " ").slice(0, 80)} (${child.status})`,
    exportedAt: new Date(),
  });
  ctx.print(escapeControls(markdown.trimEnd()));
}
