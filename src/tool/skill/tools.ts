/**
 * @module
 * The model's way to skills, reached through `use_capability`: `read_skill` returns an inline skill's
 * body to follow; `run_skill` (a writer unless the skill is read-only) and `read_only_skill` (never a
 * writer) run a subagent skill through the session's SubagentPort with the skill as the child's profile.
 * A child gets no more than the session's own permission policy allows, and `allowed-tools` only narrows.
 */
import { z } from "zod";
import { defineTool, type ToolContext, ToolError, type ToolSpec } from "../tool.ts";
import { profileOf, READ_SKILL, RUN_SKILL, type SkillCatalog, skillPin } from "./catalog.ts";
import type { Skill } from "./skill.ts";

export const READ_ONLY_SKILL = "read_only_skill";

const parameters = z.object({
  name: z.string().describe("The skill's name, as in the skills list"),
  arguments: z.string().max(20_000).optional().describe("What the skill should work on"),
});

type SkillArgs = z.infer<typeof parameters>;

export function skillTools(catalog: SkillCatalog): ToolSpec[] {
  return [
    readSkillTool(catalog),
    runSkillTool(catalog, RUN_SKILL),
    runSkillTool(catalog, READ_ONLY_SKILL),
  ] as ToolSpec[];
}

function readSkillTool(catalog: SkillCatalog): ToolSpec<SkillArgs> {
  return defineTool({
    name: READ_SKILL,
    description:
      `Load an inline skill's instructions (name from the skills list; arguments: what to apply it to). Follow them.`,
    parameters,
    readOnly: true,
    // deno-lint-ignore require-await
    async execute(args) {
      const skill = modelSkill(catalog, args.name);
      if (skill.runAs === "subagent") {
        throw new ToolError(
          "skill.subagent",
          `Skill "${skill.name}" runs as a subagent: call tool:${RUN_SKILL} with the same arguments`,
        );
      }
      const task = args.arguments?.trim();
      return { output: task ? `${skillPin(skill)}\n\nArguments: ${task}` : skillPin(skill) };
    },
  });
}

function runSkillTool(catalog: SkillCatalog, name: string): ToolSpec<SkillArgs> {
  const readOnly = name === READ_ONLY_SKILL;
  return defineTool({
    name,
    description: readOnly
      ? `Run a subagent skill read-only (no writer tools): name from the skills list, arguments: its task. Returns its answer.`
      : `Run a subagent skill (name from the skills list; arguments: its task) and return its answer.`,
    parameters,
    readOnly,
    execute: (args, ctx) => runSkill(modelSkill(catalog, args.name), args.arguments ?? "", ctx, readOnly),
  });
}

/** Runs `skill` as a child; the slash command `/name` and `run_skill` both come here. */
export async function runSkill(
  skill: Skill,
  task: string,
  ctx: Pick<ToolContext, "subagents" | "signal">,
  forceReadOnly = false,
) {
  if (skill.runAs !== "subagent") {
    throw new ToolError(
      "skill.inline",
      `Skill "${skill.name}" is an inline skill: call tool:${READ_SKILL} and follow its instructions`,
    );
  }
  if (ctx.subagents === undefined) {
    throw new ToolError(
      "skill.no_subagents",
      `Skill "${skill.name}" cannot run: this session cannot start subagents`,
    );
  }
  const outcome = await ctx.subagents.run({
    prompt: task.trim() === "" ? `Carry out the "${skill.name}" skill.` : task,
    description: `skill ${skill.name}`,
    profile: profileOf(skill),
    readOnly: forceReadOnly || skill.readOnly,
    ...(skill.model ? { model: skill.model } : {}),
    ...(skill.effort ? { effort: skill.effort } : {}),
    ...(skill.allowedTools ? { tools: skill.allowedTools } : {}),
  }, ctx.signal);
  if (!outcome.ok) throw new ToolError("skill.failed", `Skill "${skill.name}" failed: ${outcome.text}`);
  return { output: `${outcome.text}\n\n(subagent result ${outcome.ref})` };
}

function modelSkill(catalog: SkillCatalog, name: string): Skill {
  const skill = catalog.get(name.trim().replace(/^\//, ""));
  if (skill === undefined || skill.invocation === "manual") {
    const names = catalog.modelSkills().map((known) => known.name).join(", ");
    throw new ToolError("skill.unknown", `There is no skill "${name}"; the skills are: ${names || "none"}`);
  }
  return skill;
}
