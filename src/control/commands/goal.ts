/**
 * @module
 * `/goal <objective>` starts a goal and runs it turn after turn; `/goal status|pause|resume|stop` (`clear`
 * is `stop`) read and steer it. The work itself is goal mode's (src/control/goal/desk.ts).
 */
import { t } from "../../lib/i18n/mod.ts";
import { statusText } from "../goal/record.ts";
import type { GoalSnapshot } from "../events.ts";
import type { CommandContext, SlashCommand } from "./registry.ts";

const WORDS = ["status", "pause", "resume", "stop", "clear"];

export const goalCommand: SlashCommand = {
  name: "goal",
  aliases: [],
  get summary() {
    return t("cmd.goal_summary");
  },
  usage: "/goal <objective> | status | pause | resume | stop",
  argumentChoices: WORDS,
  // A goal holds the input while it runs: status, pause and stop must reach it (start and resume then
  // answer session.busy).
  immediate: true,
  runsTurns: (args) => !["", "status", "pause", "stop", "clear"].includes(args.trim().toLowerCase()),
  async run(ctx, args) {
    const goals = ctx.host.goal;
    if (!goals) return ctx.print(t("cmd.goal_none"));
    const word = args.trim().toLowerCase();
    if (word === "") return ctx.print(t("cmd.goal_usage"));
    switch (word) {
      case "status":
        return printStatus(ctx, await goals.current());
      case "pause": {
        const goal = await goals.pause();
        if (!goal) return ctx.print(t("cmd.goal_none"));
        return ctx.print(goal.status === "active" ? t("cmd.goal_pausing") : statusText(goal));
      }
      case "resume":
        return printEnd(ctx, await goals.resume());
      case "stop":
      case "clear":
        return ctx.print((await goals.stop()) ? t("cmd.goal_stopped") : t("cmd.goal_none"));
    }
    return printEnd(ctx, await goals.start(args.trim()));
  },
};

function printStatus(ctx: CommandContext, goal: GoalSnapshot | null): void {
  ctx.print(goal ? statusText(goal) : t("cmd.goal_none"));
}

/** How a run of the goal ended: its status lines, with why it stopped. */
function printEnd(ctx: CommandContext, goal: GoalSnapshot): void {
  ctx.print(statusText(goal));
}
