/**
 * @module
 * `reasonix subagent`: subagent profiles are skills with `runAs: subagent`. List them from every root
 * (with where each comes from), and create, edit or delete the files of the project's
 * (`.reasonix/skills/<name>/SKILL.md`) or the user's (`<home>/skills/<name>/SKILL.md`).
 */
import { dirname, join } from "node:path";
import { loadConfig } from "../config/load.ts";
import { protectedPaths } from "../config/protected_paths.ts";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { ReasonixError } from "../lib/errors.ts";
import { loadSkills } from "../tool/skill/loader.ts";
import type { SkillFileFields } from "../tool/skill/frontmatter.ts";
import { type Skill, SKILL_NAME } from "../tool/skill/skill.ts";
import type { AdminContext } from "./admin.ts";

export type ProfileScope = "project" | "global";

export interface ProfileSpec {
  description?: string;
  prompt?: string;
  model?: string;
  effort?: string;
  tools?: readonly string[];
  readOnly?: boolean;
}

export async function subagentList(ctx: AdminContext): Promise<Skill[]> {
  return (await sessionSkills(ctx)).filter((skill) => skill.runAs === "subagent");
}

export async function subagentCreate(
  ctx: AdminContext,
  name: string,
  spec: ProfileSpec & { scope: ProfileScope },
): Promise<string> {
  if (!SKILL_NAME.test(name)) {
    throw new ReasonixError(
      "usage.bad_name",
      `"${name}" is no profile name: use lower-case letters, digits, - and _`,
    );
  }
  if (!spec.description?.trim() || !spec.prompt?.trim()) {
    throw new ReasonixError(
      "usage.missing_option",
      "A profile needs --description and --prompt (or --prompt-file)",
    );
  }
  const path = profilePath(ctx, name, spec.scope);
  if (await exists(path)) {
    throw new ReasonixError("subagent.exists", `Profile "${name}" already exists: ${path}`, {
      hint: `Change it with: reasonix subagent edit ${name}`,
    });
  }
  const { renderSkillFile } = await skillFiles();
  await writeFileAtomic(path, renderSkillFile(fields(name, spec), spec.prompt), { mkdirs: true });
  return path;
}

export async function subagentEdit(ctx: AdminContext, name: string, change: ProfileSpec): Promise<string> {
  const skill = await ownProfile(ctx, name);
  const merged: ProfileSpec = {
    description: change.description ?? skill.description,
    model: change.model ?? skill.model,
    effort: change.effort ?? skill.effort,
    tools: change.tools ?? skill.allowedTools,
    readOnly: change.readOnly ?? skill.readOnly,
  };
  const { parseSkillFile, renderSkillFile } = await skillFiles();
  const text = renderSkillFile(fields(name, merged), change.prompt ?? skill.body);
  parseSkillFile(text, { path: skill.path, fallbackName: name, source: skill.source });
  await writeFileAtomic(skill.path, text);
  return skill.path;
}

export async function subagentDelete(ctx: AdminContext, name: string): Promise<string> {
  const skill = await ownProfile(ctx, name);
  await Deno.remove(skill.path);
  if (skill.path.endsWith("/SKILL.md")) await Deno.remove(dirname(skill.path)).catch(() => {});
  return skill.path;
}

async function sessionSkills(ctx: AdminContext): Promise<Skill[]> {
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const { hidden } = protectedPaths(config, ctx.paths, [ctx.workspace]);
  const loaded = await loadSkills({
    workspace: ctx.workspace,
    home: ctx.paths.home,
    config: config.skills,
    hidden,
  });
  return loaded.skills;
}

/** The winning profile of `name`, when it is a file this command may change (project or home). */
async function ownProfile(ctx: AdminContext, name: string): Promise<Skill> {
  const skill = (await subagentList(ctx)).find((found) => found.name === name);
  if (skill === undefined) {
    throw new ReasonixError("subagent.unknown", `There is no subagent profile "${name}"`, {
      hint: "reasonix subagent list shows them",
    });
  }
  if (skill.source === "builtin" || skill.source === "config") {
    throw new ReasonixError(
      "subagent.not_own",
      `Profile "${name}" comes from ${skill.path}: it is not changed here`,
      {
        hint: skill.source === "builtin"
          ? `Create your own with the same name (it wins), or hide it with [skills] disabled_skills`
          : "Edit the file in that folder yourself",
      },
    );
  }
  return skill;
}

function profilePath(ctx: AdminContext, name: string, scope: ProfileScope): string {
  const root = scope === "project"
    ? join(ctx.workspace, ".reasonix", "skills")
    : join(ctx.paths.home, "skills");
  return join(root, name, "SKILL.md");
}

function fields(name: string, spec: ProfileSpec): SkillFileFields {
  return {
    name,
    description: spec.description!.replace(/\s+/g, " ").trim(),
    runAs: "subagent",
    ...(spec.model ? { model: spec.model } : {}),
    ...(spec.effort ? { effort: spec.effort } : {}),
    ...(spec.readOnly ? { "read-only": true } : {}),
    ...(spec.tools && spec.tools.length > 0 ? { "allowed-tools": spec.tools } : {}),
  };
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The YAML frontmatter code, loaded when a profile is written (every face imports this module). */
function skillFiles() {
  return import("../tool/skill/frontmatter.ts");
}
