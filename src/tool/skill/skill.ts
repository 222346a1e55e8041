/**
 * @module
 * A skill: a Markdown body with frontmatter, run inline (its body pinned to a turn) or as a subagent (its
 * body the child's whole system prompt). The same file format serves Claude Code's `.claude/skills/`.
 */

/** Where a skill was found, winner first (docs/SKILLS.md). */
export type SkillSource = "project" | "config" | "home" | "builtin";

export interface Skill {
  name: string;
  description: string;
  /** `manual`: only the person can run it (`/name`); the model's catalog leaves it out. */
  invocation: "auto" | "manual";
  runAs: "inline" | "subagent";
  model?: string;
  effort?: string;
  readOnly: boolean;
  /** Narrows the tools of a subagent skill; never widens them. */
  allowedTools?: readonly string[];
  color?: string;
  body: string;
  source: SkillSource;
  /** The file it was read from; `builtin:<name>` for ours. */
  path: string;
  /** A folder skill's real folder, fixed when it loaded: `read_skill` `reference` reads only below it. */
  folder?: string;
}

/** A skill file that was skipped or lost to another, with where and why. */
export interface SkillDiagnostic {
  path: string;
  line?: number;
  message: string;
}

/** Skill names: what `/name` and `read_skill` take. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
