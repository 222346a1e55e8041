/**
 * @module
 * `/export` writes the conversation as Markdown into the workspace; `/copy` hands the last answer to
 * the face's clipboard hook (the face knows the terminal, control picks the text).
 */
import { resolve } from "node:path";
import { errorMessage } from "../../lib/errors.ts";
import { t } from "../../lib/i18n/mod.ts";
import { sessionDetails } from "../../session/details.ts";
import { loadSession } from "../../session/store.ts";
import { conversationMarkdown } from "../export_markdown.ts";
import type { CommandHost, SlashCommand } from "./registry.ts";

const FORCE = new Set(["--force", "-f"]);

export const exportCommand: SlashCommand = {
  name: "export",
  aliases: [],
  get summary() {
    return t("session.cmd_export");
  },
  usage: "/export [path] [--force]",
  async run(ctx, args) {
    const words = args.split(/\s+/).filter(Boolean);
    const force = words.some((word) => FORCE.has(word));
    const named = words.filter((word) => !FORCE.has(word)).join(" ");
    const host = ctx.host;
    const file = resolve(host.workspaceRoot, named || `reasonix-${host.sessionId}.md`);
    try {
      const markdown = conversationMarkdown(host.history(), {
        sessionId: host.sessionId,
        model: host.model,
        title: await titleOf(host),
        exportedAt: new Date(),
      });
      await Deno.writeTextFile(file, markdown, force ? {} : { createNew: true });
      ctx.print(t("session.export_written", { path: file }));
    } catch (error) {
      if (error instanceof Deno.errors.AlreadyExists) {
        return ctx.print(t("session.export_exists", { path: file }));
      }
      ctx.print(t("session.export_failed", { message: errorMessage(error) }));
    }
  },
};

export const copyCommand: SlashCommand = {
  name: "copy",
  aliases: [],
  get summary() {
    return t("session.cmd_copy");
  },
  usage: "/copy",
  async run(ctx) {
    const text = lastAnswer(ctx.host);
    if (text === null) return ctx.print(t("session.copy_none"));
    if (!ctx.copyToClipboard) return ctx.print(t("session.copy_unavailable"));
    const via = await ctx.copyToClipboard(text);
    ctx.print(t("session.copy_done", { chars: [...text].length, via: via.join(", ") }));
  },
};

/** The last assistant message that said something (tool-call steps without text are skipped). */
export function lastAnswer(host: Pick<CommandHost, "history">): string | null {
  const message = host.history().findLast((m) => m.role === "assistant" && m.content?.trim());
  return message?.role === "assistant" && message.content ? message.content.trim() : null;
}

async function titleOf(host: CommandHost): Promise<string | null> {
  return sessionDetails((await loadSession(host.sessionFile)).records).title;
}
