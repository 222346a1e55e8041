/**
 * @module
 * `/delivery [on|off|status]`: verified delivery's host gates for this session (`[agent] delivery` sets
 * where a session starts). A change reaches the next turn; `status` (or no argument) shows the mode and
 * what the last turn with delivery on observed.
 */
import { t } from "../../lib/i18n/mod.ts";
import type { DeliveryStatus } from "../delivery/policy.ts";
import type { SlashCommand } from "./registry.ts";

export const deliveryCommand: SlashCommand = {
  name: "delivery",
  aliases: [],
  get summary() {
    return t("cmd.delivery_summary");
  },
  usage: "/delivery [on|off|status]",
  argumentChoices: ["on", "off", "status"],
  run(ctx, args) {
    const delivery = ctx.host.delivery;
    if (!delivery) return ctx.print(t("cmd.delivery_unavailable"));
    const word = args.trim().toLowerCase();
    if (word === "on" || word === "off") delivery.setMode(word === "on" ? "verify" : "off");
    else if (word !== "" && word !== "status") return ctx.print(t("cmd.delivery_usage"));
    ctx.print(statusText(delivery.status()));
  },
};

function statusText(status: DeliveryStatus): string {
  const mode = t(status.mode === "verify" ? "cmd.delivery_on" : "cmd.delivery_off");
  const turn = status.turn;
  if (!turn) return mode;
  const facts = t("cmd.delivery_turn", {
    change: turn.changed ? "yes" : "no",
    verified: turn.verified === null ? "none" : `\`${turn.verified}\``,
    cited: turn.cited ? "yes" : "no",
    refusals: turn.refusals,
  });
  return `${mode}\n${facts}`;
}
