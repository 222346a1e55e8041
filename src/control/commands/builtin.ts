/**
 * @module
 * The slash commands whose features exist today, and `defaultCommands()` which registers them.
 */
import { PERMISSION_MODES } from "../../config/types.ts";
import { isReasoningLanguage, REASONING_LANGUAGES } from "../reasoning_language.ts";
import type { TurnTotals } from "../turn_outcome.ts";
import { type CommandContext, CommandRegistry, type SlashCommand } from "./registry.ts";
import { t } from "../../lib/i18n/mod.ts";
import { keyValueTable } from "../../lib/text_table.ts";
import { sessionCommands } from "./session.ts";
import { displayCommands } from "./display.ts";
import { memoryCommands } from "./memory.ts";
import { workspaceCommands } from "./workspace.ts";
import { rewindCommand } from "./rewind.ts";
import { branchCommands } from "./branch.ts";
import { mcpCommand } from "./mcp.ts";
import { contextCommand } from "./context.ts";
import { planCommand } from "./plan.ts";
import { goalCommand } from "./goal.ts";
import { agentsCommand } from "./agents.ts";
import { deliveryCommand } from "./delivery.ts";

const MODES = PERMISSION_MODES;

/** A registry holding every built-in command; `/help` reads the same registry. */
export function defaultCommands(): CommandRegistry {
  const registry = new CommandRegistry();
  registry.register(helpCommand(registry));
  for (const command of [quit, compact, contextCommand, status, cost, todo, permissions, reasoningLanguage]) {
    registry.register(command);
  }
  for (const command of displayCommands()) registry.register(command);
  for (const command of sessionCommands()) registry.register(command);
  registry.register(rewindCommand);
  for (const command of branchCommands()) registry.register(command);
  for (const command of [...memoryCommands(), ...workspaceCommands(), agentsCommand]) {
    registry.register(command);
  }
  registry.register(mcpCommand);
  registry.register(planCommand);
  registry.register(goalCommand);
  registry.register(deliveryCommand);
  return registry;
}

function helpCommand(registry: CommandRegistry): SlashCommand {
  return {
    name: "help",
    aliases: ["?"],
    get summary() {
      return t("cmd.help_summary");
    },
    usage: "/help [command]",
    run: (ctx, args) => ctx.print(registry.helpText(args || undefined)),
  };
}

const quit: SlashCommand = {
  name: "quit",
  aliases: ["exit"],
  get summary() {
    return t("cmd.quit_summary");
  },
  usage: "/quit",
  run: (ctx) => ctx.quit(),
};

const compact: SlashCommand = {
  name: "compact",
  aliases: [],
  get summary() {
    return t("cmd.compact_summary");
  },
  usage: "/compact [focus]",
  async run(ctx, args) {
    try {
      const done = await ctx.host.compact(args.trim() || undefined);
      ctx.print(t(done ? "cmd.compacted" : "cmd.nothing_to_compact"));
    } catch (error) {
      ctx.print(t("cmd.cannot_compact", { message: error instanceof Error ? error.message : String(error) }));
    }
  },
};

const status: SlashCommand = {
  name: "status",
  aliases: [],
  get summary() {
    return t("cmd.status_summary");
  },
  usage: "/status",
  run(ctx) {
    const host = ctx.host;
    const totals = host.totals();
    ctx.print(keyValueTable([
      [
        t("cmd.status_model"),
        t("cmd.status_model_value", { model: host.model, provider: host.providerName }),
      ],
      [t("cmd.status_session"), host.sessionId],
      [t("cmd.status_file"), host.sessionFile],
      [t("cmd.status_mode"), host.permissionMode],
      [
        t("cmd.status_turns"),
        t("cmd.status_turns_value", {
          turns: totals.turns,
          calls: totals.modelCalls,
          tools: totals.toolCalls,
        }),
      ],
    ], ctx.width));
  },
};

const cost: SlashCommand = {
  name: "cost",
  aliases: ["usage"],
  get summary() {
    return t("cmd.cost_summary");
  },
  usage: "/cost",
  run: (ctx) => ctx.print(costText(ctx.host.totals(), ctx.width)),
};

const TODO_MARKS = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;

const todo: SlashCommand = {
  name: "todo",
  aliases: ["todos"],
  get summary() {
    return t("cmd.todo_summary");
  },
  usage: "/todo",
  run: (ctx) => {
    const items = ctx.host.todos();
    if (items.length === 0) return ctx.print(t("cmd.todo_empty"));
    ctx.print(items.map((item) => `${TODO_MARKS[item.status]} ${item.content}`).join("\n"));
  },
};

export function costText(totals: TurnTotals, width?: number): string {
  const usage = totals.usage;
  const ratio = usage.promptTokens > 0 ? usage.cacheHitTokens / usage.promptTokens : 0;
  const money = totals.cost === null
    ? t("cmd.cost_unknown")
    : `${totals.cost.toFixed(4)} ${totals.currency ?? ""}`.trim();
  const prompt = { prompt: usage.promptTokens, hit: usage.cacheHitTokens, ratio: (ratio * 100).toFixed(1) };
  const completion = { completion: usage.completionTokens, reasoning: usage.reasoningTokens };
  return keyValueTable([
    [t("cmd.cost_prompt"), t("cmd.cost_prompt_value", prompt)],
    [t("cmd.cost_completion"), t("cmd.cost_completion_value", completion)],
    [t("cmd.cost_calls"), String(totals.modelCalls)],
    // The tokens and cost above include them (docs/SUBAGENTS.md#cost).
    ...(totals.subagentCalls > 0
      ? [[t("cmd.cost_subagent_calls"), String(totals.subagentCalls)] as const]
      : []),
    [t("cmd.cost_cost"), money],
  ], width);
}

const permissions: SlashCommand = {
  name: "permissions",
  aliases: ["permission", "mode"],
  get summary() {
    return t("cmd.permissions_summary");
  },
  usage: "/permissions [ask|auto|yolo|plan]",
  argumentChoices: MODES,
  run(ctx, args) {
    if (!args) return ctx.print(t("cmd.permission_mode", { mode: ctx.host.permissionMode }));
    const mode = MODES.find((candidate) => candidate === args.toLowerCase());
    if (!mode) return ctx.print(t("cmd.permission_unknown", { mode: args, modes: MODES.join(", ") }));
    ctx.host.setPermissionMode(mode);
    ctx.print(t("cmd.permission_mode", { mode: ctx.host.permissionMode }));
  },
};

const reasoningLanguage: SlashCommand = {
  name: "reasoning-language",
  aliases: [],
  get summary() {
    return t("cmd.reasoning_summary");
  },
  usage: "/reasoning-language auto|zh|en",
  argumentChoices: REASONING_LANGUAGES,
  run(ctx: CommandContext, args) {
    const language = args.toLowerCase();
    if (!isReasoningLanguage(language)) {
      return ctx.print(t("cmd.reasoning_usage", { choices: REASONING_LANGUAGES.join("|") }));
    }
    ctx.host.setReasoningLanguage(language);
    ctx.print(t("cmd.reasoning_set", { language }));
  },
};
