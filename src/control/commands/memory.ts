/**
 * @module
 * `/memory`, `/remember` (also typed as `#note`) and `/forget`: the workspace's instruction files and
 * the standing notes kept in one of them. The running session hears of a change on its next turn.
 */
import { relative } from "node:path";
import { errorMessage } from "../../lib/errors.ts";
import { t } from "../../lib/i18n/mod.ts";
import type { Memory } from "../memory.ts";
import type { CommandContext, SlashCommand } from "./registry.ts";
import { formatInstructions } from "./memory_instructions.ts";
import { escapeControls } from "../../lib/terminal_text.ts";

export function memoryCommands(): SlashCommand[] {
  return [memory, remember, forget];
}

function withMemory(
  name: string,
  body: (memory: Memory, ctx: CommandContext, args: string) => Promise<void>,
) {
  return async (ctx: CommandContext, args: string) => {
    const memory = ctx.host.workspaceOps?.memory;
    if (!memory) return ctx.print(t("memory.unavailable", { command: name }));
    await body(memory, ctx, args.trim());
  };
}

const memory: SlashCommand = {
  name: "memory",
  aliases: [],
  get summary() {
    return t("memory.summary");
  },
  usage: "/memory [instructions]",
  run: withMemory("memory", async (memory, ctx, args) => {
    const ops = ctx.host.workspaceOps;
    if (args === "instructions" && ops) return ctx.print(formatInstructions(await ops.instructions()));
    const report = await memory.report();
    const root = ctx.host.workspaceRoot;
    const lines = report.sources.length === 0 ? [t("memory.no_files", { file: report.notesFile })] : [
      t("memory.files_title"),
      ...report.sources.map((source) =>
        `  ${escapeControls(source.path)}  ${t(`instructions.scope_${source.scope}`)}, ${
          t("memory.bytes", { n: source.bytes })
        }${source.loaded ? "" : ` ${t("memory.not_loaded")}`}`
      ),
    ];
    const notes = report.notes.length === 0 ? [t("memory.no_notes")] : [
      t("memory.notes_title", { file: relative(root, report.notesFile) }),
      ...report.notes.map((note, i) => `  ${i + 1}. ${note}`),
    ];
    ctx.print([...lines, "", ...notes].join("\n"));
  }),
};

const remember: SlashCommand = {
  name: "remember",
  aliases: [],
  get summary() {
    return t("memory.remember_summary");
  },
  usage: "/remember <note>",
  shorthand: noteShorthand,
  get helpNote() {
    return t("memory.help_note");
  },
  run: withMemory("remember", async (memory, ctx, args) => {
    if (!args) return ctx.print(t("memory.remember_usage"));
    try {
      const { file, note } = await memory.remember(args);
      ctx.print(t("memory.remembered", { file: relative(ctx.host.workspaceRoot, file), note }));
    } catch (error) {
      ctx.print(t("memory.failed", { message: errorMessage(error) }));
    }
  }),
};

const forget: SlashCommand = {
  name: "forget",
  aliases: [],
  get summary() {
    return t("memory.forget_summary");
  },
  usage: "/forget <number|text>",
  run: withMemory("forget", async (memory, ctx, query) => {
    if (!query) return ctx.print(t("memory.forget_usage"));
    try {
      const result = await memory.forget(query);
      if (result.kind === "none") return ctx.print(t("memory.forget_none", { query }));
      if (result.kind === "ambiguous") {
        const matches = result.matches.map((note) => `  ${note}`).join("\n");
        return ctx.print(t("memory.forget_ambiguous", { query, count: result.matches.length, matches }));
      }
      const file = relative(ctx.host.workspaceRoot, result.file);
      ctx.print(t("memory.forgotten", { file, note: result.note }));
    } catch (error) {
      ctx.print(t("memory.failed", { message: errorMessage(error) }));
    }
  }),
};

/** `#use tabs` or `# use tabs` is a note; `## Heading`, `#!shebang` and anything multi-line are text. */
export function noteShorthand(input: string): string | null {
  const text = input.trim();
  if (text.includes("\n")) return null;
  return /^#(?![#!])\s*(\S.*)$/.exec(text)?.[1]?.trim() ?? null;
}
