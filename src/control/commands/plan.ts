/**
 * @module
 * `/plan`: plan mode on (`/plan`, `/plan on`) or back to the mode it replaced (`/plan off`); with a
 * plan waiting, `/plan` shows it. Shift+Tab reaches the same mode.
 */
import { t } from "../../lib/i18n/mod.ts";
import { planText } from "../plan_text.ts";
import type { SlashCommand } from "./registry.ts";

export const planCommand: SlashCommand = {
  name: "plan",
  aliases: [],
  get summary() {
    return t("cmd.plan_summary");
  },
  usage: "/plan [on|off]",
  argumentChoices: ["on", "off"],
  run(ctx, args) {
    const word = args.trim().toLowerCase();
    const plans = ctx.host.plans;
    if (word === "off") {
      if (ctx.host.permissionMode === "plan") ctx.host.setPermissionMode(plans?.previousMode ?? "ask");
      return ctx.print(t("cmd.permission_mode", { mode: ctx.host.permissionMode }));
    }
    if (word !== "" && word !== "on") return ctx.print(t("cmd.plan_usage"));
    const waiting = plans?.pending();
    if (ctx.host.permissionMode === "plan" && waiting) return ctx.print(planText(waiting));
    ctx.host.setPermissionMode("plan");
    ctx.print(t("cmd.permission_mode", { mode: ctx.host.permissionMode }));
  },
};
