/**
 * @module
 * Skills as slash commands, a command source read on every lookup (a built-in command's name always
 * wins): `/name [args]` for each skill, and `/skills` listing them with their files and diagnostics.
 * An inline skill becomes a user turn whose text is what was typed and whose tail pins the skill's body;
 * a subagent skill runs through the session's SubagentPort (Ctrl+C, `Controller.interrupt()`, cancels
 * it), its answer printed and told to the model on the tail of the next turn. Every name, description and path from a skill file is shown escaped.
 */
import { errorFields, errorText } from "../lib/errors.ts";
import { escapeControls } from "../lib/terminal_text.ts";
import { t } from "../lib/i18n/mod.ts";
import type { SkillCatalog } from "../tool/skill/catalog.ts";
import { skillPin } from "../tool/skill/catalog.ts";
import type { Skill } from "../tool/skill/skill.ts";
import { runSkill } from "../tool/skill/tools.ts";
import type { ToolContext } from "../tool/tool.ts";
import { RunningCommands } from "./running_commands.ts";
import type { CommandRegistry, CommandSource, SlashCommand } from "./commands/registry.ts";

/** What the commands read from the current session (the Controller's parts, read on each use). */
export interface SkillSession {
  skills?: SkillCatalog;
  toolContext: Pick<ToolContext, "subagents">;
  turnNotes?: string[];
  stops?: RunningCommands;
}

export function withSkillCommands(registry: CommandRegistry, session: () => SkillSession): CommandRegistry {
  registry.addSource({ commands: () => skillCommands(session) } satisfies CommandSource);
  return registry;
}

function skillCommands(session: () => SkillSession): SlashCommand[] {
  const catalog = session().skills;
  if (catalog === undefined) return [];
  return [skillsCommand(catalog), ...catalog.list().map((skill) => skillCommand(skill, session))];
}

function skillCommand(skill: Skill, session: () => SkillSession): SlashCommand {
  const base = {
    name: skill.name,
    aliases: [],
    get summary() {
      const key = skill.runAs === "subagent" ? "skills.subagent_summary" : "skills.command_summary";
      return t(key, { description: escapeControls(skill.description) });
    },
    usage: `/${skill.name} [arguments]`,
    idleOnly: true,
  };
  if (skill.runAs === "inline") {
    return {
      ...base,
      run: () => {},
      expand: (_ctx, args) =>
        Promise.resolve({ text: `/${skill.name} ${args}`.trim(), options: { pins: [skillPin(skill)] } }),
    };
  }
  return {
    ...base,
    async run(ctx, args) {
      const current = session();
      try {
        const stops = current.stops ??= new RunningCommands();
        const { output } = await stops.run((signal) =>
          runSkill(skill, args, { ...current.toolContext, signal })
        );
        ctx.print(escapeControls(output));
        const note = `The person ran the subagent skill "${skill.name}" (${
          args || "no arguments"
        }); its answer:\n${output}`;
        current.turnNotes = [...(current.turnNotes ?? []), note];
      } catch (error) {
        ctx.print(errorText(errorFields(error)).trimEnd());
      }
    },
  };
}

function skillsCommand(catalog: SkillCatalog): SlashCommand {
  return {
    name: "skills",
    aliases: [],
    get summary() {
      return t("cmd.skills_summary");
    },
    usage: "/skills",
    run(ctx) {
      ctx.print(skillsListing(catalog));
    },
  };
}

export function skillsListing(catalog: SkillCatalog): string {
  const skills = catalog.list();
  const width = Math.max(...skills.map((skill) => skill.name.length));
  const lines = skills.map((skill) => {
    const kind = `${skill.runAs}${skill.readOnly ? ", read-only" : ""}${
      skill.invocation === "manual" ? ", manual" : ""
    }`;
    return `  /${skill.name.padEnd(width)}  ${escapeControls(skill.description)}\n` +
      `   ${" ".repeat(width)}  ${kind} · ${skill.source} · ${escapeControls(skill.path)}`;
  });
  const out = [t("skills.title", { count: skills.length }), ...lines];
  if (!catalog.implicit) out.push("", t("skills.not_told"));
  if (catalog.diagnostics.length > 0) {
    out.push("", t("skills.diagnostics"));
    for (const d of catalog.diagnostics) {
      out.push(`  ${escapeControls(d.path)}${d.line ? `:${d.line}` : ""}: ${escapeControls(d.message)}`);
    }
  }
  return out.join("\n");
}
