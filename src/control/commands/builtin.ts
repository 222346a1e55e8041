/**
 * @module
 * The slash commands whose features exist today, and `defaultCommands()` which registers them.
 */
import type { PermissionMode } from "../../config/types.ts";
import { isReasoningLanguage, REASONING_LANGUAGES } from "../reasoning_language.ts";
import type { TurnTotals } from "../turn_outcome.ts";
import { type CommandContext, CommandRegistry, type SlashCommand } from "./registry.ts";
import { sessionCommands } from "./session.ts";
import { displayCommands } from "./display.ts";
import { memoryCommands } from "./memory.ts";
import { workspaceCommands } from "./workspace.ts";

const MODES: readonly PermissionMode[] = ["ask", "auto", "yolo"];

/** A registry holding every built-in command; `/help` reads the same registry. */
export function defaultCommands(): CommandRegistry {
  const registry = new CommandRegistry();
  registry.register(helpCommand(registry));
  for (const command of [quit, compact, status, cost, todo, permissions, reasoningLanguage]) {
    registry.register(command);
  }
  for (const command of displayCommands()) registry.register(command);
  for (const command of sessionCommands()) registry.register(command);
  for (const command of [...memoryCommands(), ...workspaceCommands()]) registry.register(command);
  return registry;
}

function helpCommand(registry: CommandRegistry): SlashCommand {
  return {
    name: "help",
    aliases: ["?"],
    summary: "List the commands, or show how to use one",
    usage: "/help [command]",
    run: (ctx, args) => ctx.print(registry.helpText(args || undefined)),
  };
}

const quit: SlashCommand = {
  name: "quit",
  aliases: ["exit"],
  summary: "End the session",
  usage: "/quit",
  run: (ctx) => ctx.quit(),
};

const compact: SlashCommand = {
  name: "compact",
  aliases: [],
  summary: "Summarise the conversation so far to free context",
  usage: "/compact",
  async run(ctx) {
    try {
      const done = await ctx.host.compact();
      ctx.print(done ? "Conversation compacted." : "Nothing to compact yet.");
    } catch (error) {
      ctx.print(`Cannot compact now: ${error instanceof Error ? error.message : String(error)}`);
    }
  },
};

const status: SlashCommand = {
  name: "status",
  aliases: [],
  summary: "Show the model, session and permission mode",
  usage: "/status",
  run(ctx) {
    const host = ctx.host;
    const totals = host.totals();
    ctx.print([
      `Model:       ${host.model} (${host.providerName})`,
      `Session:     ${host.sessionId}`,
      `File:        ${host.sessionFile}`,
      `Permissions: ${host.permissionMode}`,
      `Turns:       ${totals.turns}, model calls ${totals.modelCalls}, tool calls ${totals.toolCalls}`,
    ].join("\n"));
  },
};

const cost: SlashCommand = {
  name: "cost",
  aliases: ["usage"],
  summary: "Show tokens, cache hits and cost so far",
  usage: "/cost",
  run: (ctx) => ctx.print(costText(ctx.host.totals())),
};

const TODO_MARKS = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;

const todo: SlashCommand = {
  name: "todo",
  aliases: ["todos"],
  summary: "Show the session's todo list",
  usage: "/todo",
  run: (ctx) => {
    const items = ctx.host.todos();
    if (items.length === 0) return ctx.print("The todo list is empty.");
    ctx.print(items.map((item) => `${TODO_MARKS[item.status]} ${item.content}`).join("\n"));
  },
};

export function costText(totals: TurnTotals): string {
  const usage = totals.usage;
  const ratio = usage.promptTokens > 0 ? usage.cacheHitTokens / usage.promptTokens : 0;
  const money = totals.cost === null
    ? "unknown (no price for this model)"
    : `${totals.cost.toFixed(4)} ${totals.currency ?? ""}`.trim();
  return [
    `Prompt tokens:     ${usage.promptTokens} (cache hit ${usage.cacheHitTokens}, ${
      (ratio * 100).toFixed(1)
    }%)`,
    `Completion tokens: ${usage.completionTokens} (reasoning ${usage.reasoningTokens})`,
    `Model calls:       ${totals.modelCalls}`,
    `Cost:              ${money}`,
  ].join("\n");
}

const permissions: SlashCommand = {
  name: "permissions",
  aliases: ["permission", "mode"],
  summary: "Show or set the permission mode (ask, auto, yolo)",
  usage: "/permissions [ask|auto|yolo]",
  argumentChoices: MODES,
  run(ctx, args) {
    if (!args) return ctx.print(`Permission mode: ${ctx.host.permissionMode}`);
    const mode = MODES.find((candidate) => candidate === args.toLowerCase());
    if (!mode) return ctx.print(`Unknown permission mode "${args}". Use one of: ${MODES.join(", ")}.`);
    ctx.host.setPermissionMode(mode);
    ctx.print(`Permission mode: ${ctx.host.permissionMode}`);
  },
};

const reasoningLanguage: SlashCommand = {
  name: "reasoning-language",
  aliases: [],
  summary: "Choose the language of the model's visible reasoning",
  usage: "/reasoning-language auto|zh|en",
  argumentChoices: REASONING_LANGUAGES,
  run(ctx: CommandContext, args) {
    const language = args.toLowerCase();
    if (!isReasoningLanguage(language)) {
      return ctx.print(`Usage: /reasoning-language ${REASONING_LANGUAGES.join("|")}`);
    }
    ctx.host.setReasoningLanguage(language);
    ctx.print(`Reasoning language: ${language} (from the next message).`);
  },
};
