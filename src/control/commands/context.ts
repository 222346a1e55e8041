/**
 * @module
 * `/context`: the window's parts and the next snip/compaction points (control/context_report.ts).
 */
import { t } from "../../lib/i18n/mod.ts";
import { formatContextReport } from "../context_report.ts";
import type { SlashCommand } from "./registry.ts";

export const contextCommand: SlashCommand = {
  name: "context",
  aliases: [],
  get summary() {
    return t("cmd.context_summary");
  },
  usage: "/context",
  run(ctx) {
    const report = ctx.host.contextReport?.();
    if (report) ctx.print(formatContextReport(report, ctx.width));
  },
};
