/**
 * @module
 * `/agents` lists the running subagents (session id, depth, reader or writer, what it does);
 * `/agents cancel <id>` stops one (and its own children), leaving the rest and the turn running;
 * `/agents show <id>` prints one child's transcript (running or ended).
 */
import { t } from "../../lib/i18n/mod.ts";
import { escapeControls } from "../../lib/terminal_text.ts";
import type { SlashCommand } from "./registry.ts";
import { showChildTranscript } from "./agent_transcript.ts";

export const agentsCommand: SlashCommand = {
  name: "agents",
  aliases: [],
  get summary() {
    return t("agents.summary");
  },
  usage: "/agents [cancel <id> | show <id>]",
  run(ctx, args) {
    const control = ctx.host.workspaceOps?.subagents;
    if (!control) return ctx.print(t("memory.unavailable", { command: "agents" }));
    const [verb, id] = args.trim().split(/\s+/);
    if (verb === "cancel" && id) {
      return ctx.print(
        t(control.cancel(id) ? "agents.cancelled" : "agents.not_running", { id: escapeControls(id) }),
      );
    }
    if (verb === "show" && id) return showChildTranscript(ctx, id);
    if (verb) return ctx.print(`usage: ${agentsCommand.usage}`);
    const running = control.children();
    if (running.length === 0) return ctx.print(t("agents.none"));
    ctx.print(
      running.map((child) =>
        `${child.sessionId}  depth ${child.depth}  ${child.writer ? "writer" : "reader"}  ${
          escapeControls(child.description.replace(/\s+/g, " ").slice(0, 80))
        }`
      ).join("\n"),
    );
  },
};
