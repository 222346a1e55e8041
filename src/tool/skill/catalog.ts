/**
 * @module
 * A session's skills: looked up by name, listed for `/skills`, offered to `task` as subagent profiles,
 * and described to the model by one catalog block in the session-context message (name and description
 * of each skill the model may use, sorted). Bodies are never in the block; they load on demand.
 */
import type { ProfileSource, SubagentProfile } from "../subagent_port.ts";
import type { LoadedSkills } from "./loader.ts";
import type { Skill, SkillDiagnostic } from "./skill.ts";

export const READ_SKILL = "read_skill";
export const RUN_SKILL = "run_skill";
const DESCRIPTION_CHARS = 200;

export class SkillCatalog implements ProfileSource {
  #skills: readonly Skill[];
  #byName: ReadonlyMap<string, Skill>;
  #diagnostics: readonly SkillDiagnostic[];
  /** `[skills] disable_implicit_invocation`: the model gets no catalog and no skill tools. */
  readonly implicit: boolean;

  constructor(loaded: Pick<LoadedSkills, "skills" | "diagnostics">, options: { implicit?: boolean } = {}) {
    this.#skills = loaded.skills;
    this.#byName = new Map(loaded.skills.map((skill) => [skill.name, skill]));
    this.#diagnostics = loaded.diagnostics;
    this.implicit = options.implicit ?? true;
  }

  get diagnostics(): readonly SkillDiagnostic[] {
    return this.#diagnostics;
  }

  /** `/reload`: takes `next`'s skills in place, so every holder of this catalog sees them. */
  replace(next: SkillCatalog): void {
    this.#skills = next.#skills;
    this.#byName = next.#byName;
    this.#diagnostics = next.#diagnostics;
  }

  /** Every skill, sorted by name. */
  list(): readonly Skill[] {
    return this.#skills;
  }

  get(name: string): Skill | undefined {
    return this.#byName.get(name);
  }

  /** The skills the model may use on its own: not `invocation: manual`. */
  modelSkills(): readonly Skill[] {
    return this.implicit ? this.#skills.filter((skill) => skill.invocation !== "manual") : [];
  }

  profile(name: string): SubagentProfile | undefined {
    const skill = this.#byName.get(name);
    return skill === undefined ? undefined : profileOf(skill);
  }

  /** The block the session-context message ends with; null when the model may use no skill. */
  block(): string | null {
    const skills = this.modelSkills();
    if (skills.length === 0) return null;
    const lines = skills.map((skill) =>
      `- ${skill.name}${skill.runAs === "subagent" ? " (subagent)" : ""}: ${short(skill.description)}`
    );
    return [
      `<skills>`,
      `Skills are instructions for recurring tasks. When one fits the task, load it through use_capability: ` +
      `tool:${READ_SKILL} {"name","arguments"} returns an inline skill's instructions to follow; ` +
      `tool:${RUN_SKILL} {"name","arguments"} runs a subagent skill and returns its answer.`,
      ...lines,
      `</skills>`,
    ].join("\n");
  }
}

export function profileOf(skill: Skill): SubagentProfile {
  return {
    name: skill.name,
    body: skill.body,
    ...(skill.model ? { model: skill.model } : {}),
    ...(skill.effort ? { effort: skill.effort } : {}),
    readOnly: skill.readOnly,
    ...(skill.allowedTools ? { allowedTools: skill.allowedTools } : {}),
  };
}

/** A skill's body as a turn carries it: the person's or the model's arguments stay outside the pin. */
export function skillPin(skill: Skill): string {
  return `<skill-pin name="${skill.name}">\n${skill.body}\n</skill-pin>`;
}

function short(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= DESCRIPTION_CHARS ? line : `${line.slice(0, DESCRIPTION_CHARS - 1)}…`;
}
