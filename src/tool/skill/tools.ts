/**
 * @module
 * The model's way to skills, reached through `use_capability`: `read_skill` returns an inline skill's
 * body to follow; `run_skill` (a writer unless the skill is read-only) and `read_only_skill` (never a
 * writer) run a subagent skill through the session's SubagentPort with the skill as the child's profile.
 * A child gets no more than the session's own permission policy allows, and `allowed-tools` only narrows.
 */
import { isAbsolute, relative, resolve } from "node:path";
import { z } from "zod";
import { readConfined } from "../../lib/confined_read.ts";
import { defineTool, type ToolContext, ToolError, type ToolSpec } from "../tool.ts";
import { profileOf, READ_SKILL, RUN_SKILL, type SkillCatalog, skillPin } from "./catalog.ts";
import type { Skill } from "./skill.ts";
import type { SubagentRequest } from "../subagent_port.ts";

export const READ_ONLY_SKILL = "read_only_skill";

const parameters = z.object({
  name: z.string().describe("The skill's name, as in the skills list"),
  arguments: z.string().max(20_000).optional().describe("What the skill should work on"),
});

const runParameters = parameters.extend({
  continue_from: z.string().min(1).max(200).optional().describe(
    "The ref of a finished run of this kind: continue that child's session with arguments as its next prompt",
  ),
});

const readParameters = parameters.extend({
  reference: z.string().max(500).optional().describe("A file in the skill's folder its instructions name"),
});

type ReadArgs = z.infer<typeof readParameters>;
type RunArgs = z.infer<typeof runParameters>;

export function skillTools(catalog: SkillCatalog): ToolSpec[] {
  return [
    readSkillTool(catalog),
    runSkillTool(catalog, RUN_SKILL),
    runSkillTool(catalog, READ_ONLY_SKILL),
  ] as ToolSpec[];
}

function readSkillTool(catalog: SkillCatalog): ToolSpec<ReadArgs> {
  return defineTool({
    name: READ_SKILL,
    description:
      `Load an inline skill's instructions (name from the skills list; arguments: what to apply it to). Follow them. reference: read a file of the skill's folder that its instructions name.`,
    parameters: readParameters,
    readOnly: true,
    async execute(args, ctx) {
      const skill = modelSkill(catalog, args.name);
      if (args.reference !== undefined) return { output: await skillReference(skill, args.reference, ctx) };
      if (skill.runAs === "subagent") {
        throw new ToolError(
          "skill.subagent",
          `Skill "${skill.name}" runs as a subagent: call tool:${RUN_SKILL} with the same arguments`,
        );
      }
      const task = args.arguments?.trim();
      const files = await folderFiles(skill);
      const parts = [
        skillPin(skill),
        ...(files.length > 0
          ? [`Files in its folder (read_skill with "reference"): ${files.join(", ")}`]
          : []),
        ...(task ? [`Arguments: ${task}`] : []),
      ];
      return { output: parts.join("\n\n") };
    },
  });
}

function runSkillTool(catalog: SkillCatalog, name: string): ToolSpec<RunArgs> {
  const readOnly = name === READ_ONLY_SKILL;
  return defineTool({
    name,
    description: readOnly
      ? `Run a subagent skill read-only (no writer tools): name from the skills list, arguments: its task. Returns its answer.`
      : `Run a subagent skill (name from the skills list; arguments: its task) and return its answer.`,
    parameters: runParameters,
    readOnly,
    execute: (args, ctx) =>
      runSkill(modelSkill(catalog, args.name), args.arguments ?? "", ctx, readOnly, args.continue_from),
  });
}

/** Runs `skill` as a child; the slash command `/name` and `run_skill` both come here. */
export async function runSkill(
  skill: Skill,
  task: string,
  ctx: Pick<ToolContext, "subagents" | "signal">,
  forceReadOnly = false,
  continueFrom?: string,
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
  const request = skillRequest(skill, task, forceReadOnly);
  const outcome = await ctx.subagents.run(continueFrom ? { ...request, continueFrom } : request, ctx.signal);
  if (!outcome.ok) throw new ToolError("skill.failed", `Skill "${skill.name}" failed: ${outcome.text}`);
  return { output: `${outcome.text}\n\n(subagent result ${outcome.ref})` };
}

/** The child a subagent skill starts: its body the whole system prompt, `read-only` and tools kept. */
export function skillRequest(skill: Skill, task: string, forceReadOnly = false): SubagentRequest {
  return {
    prompt: task.trim() === "" ? `Carry out the "${skill.name}" skill.` : task,
    description: `skill ${skill.name}`,
    profile: profileOf(skill),
    readOnly: forceReadOnly || skill.readOnly,
    ...(skill.model ? { model: skill.model } : {}),
    ...(skill.effort ? { effort: skill.effort } : {}),
    ...(skill.allowedTools ? { tools: skill.allowedTools } : {}),
  };
}

const MAX_LISTED = 20;

/** The other files of a folder skill (names only, sorted, at most MAX_LISTED). */
async function folderFiles(skill: Skill): Promise<string[]> {
  const dir = skill.folder;
  if (dir === undefined) return [];
  const names: string[] = [];
  try {
    // A folder swapped for a symlink since the skill loaded lists nothing.
    if (await Deno.realPath(dir) !== dir) return [];
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && entry.name !== "SKILL.md" && !entry.name.startsWith(".")) names.push(entry.name);
    }
  } catch {
    return [];
  }
  return names.sort().slice(0, MAX_LISTED);
}

/** A file beside a folder skill's SKILL.md, confined to that folder (and never a hidden path below it). */
async function skillReference(skill: Skill, reference: string, ctx: ToolContext): Promise<string> {
  const dir = skill.folder;
  if (dir === undefined) {
    throw new ToolError("skill.no_reference", `Skill "${skill.name}" has no folder of files to read`);
  }
  const path = resolve(dir, reference);
  // The skill's own folder may sit in Reasonix's home, which tools never see; only that folder opens here.
  const hidden = ctx.workspace.forbidRead.filter((hiddenPath) => relative(hiddenPath, dir).startsWith(".."));
  const read = await readConfined(path, { roots: [dir], hidden, maxBytes: 256 * 1024 });
  // Below the folder as it was when the skill loaded: a folder swapped for a symlink since (to $HOME, say)
  // resolves elsewhere and is refused, though the confined read follows the root's link.
  if (read.kind === "text" && isBelow(read.real, dir)) return read.text;
  const why = read.kind === "missing"
    ? "it does not exist"
    : read.kind === "skipped"
    ? read.reason
    : "it is outside the skill's folder";
  throw new ToolError("skill.reference", `Cannot read "${reference}" of skill "${skill.name}": ${why}`);
}

function modelSkill(catalog: SkillCatalog, name: string): Skill {
  const skill = catalog.get(name.trim().replace(/^\//, ""));
  if (skill === undefined || skill.invocation === "manual") {
    const names = catalog.modelSkills().map((known) => known.name).join(", ");
    throw new ToolError("skill.unknown", `There is no skill "${name}"; the skills are: ${names || "none"}`);
  }
  return skill;
}

function isBelow(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}
