/**
 * @module
 * `reasonix subagent try|run`: one profile (a skill with `runAs: subagent`) run as a child of a headless
 * session through that session's SubagentPort, under its permission policy and sandbox. `try` forces the
 * child read-only (the port never hands it a writer tool; the session is in plan mode as well).
 */
import { ReasonixError } from "../lib/errors.ts";
import type { SkillCatalog } from "../tool/skill/catalog.ts";
import { skillRequest } from "../tool/skill/tools.ts";
import type { SubagentOutcome } from "../tool/subagent_port.ts";
import type { ToolContext } from "../tool/tool.ts";

export interface ProfileRun {
  name: string;
  task: string;
  /** `try`: the child gets no writer tool whatever the profile says. */
  readOnly: boolean;
  signal: AbortSignal;
}

export type ProfileRunner = (run: ProfileRun) => Promise<SubagentOutcome>;

export function profileRunner(
  session: () => { skills?: SkillCatalog; toolContext: Pick<ToolContext, "subagents"> },
): ProfileRunner {
  return (run) => {
    const { skills, toolContext } = session();
    const skill = skills?.get(run.name);
    if (skill === undefined || skill.runAs !== "subagent") {
      throw new ReasonixError("subagent.unknown_profile", `There is no subagent profile "${run.name}"`, {
        hint: '"reasonix subagent list" shows the profiles',
      });
    }
    if (toolContext.subagents === undefined) {
      throw new ReasonixError("subagent.unavailable", "This session cannot start subagents");
    }
    return toolContext.subagents.run(skillRequest(skill, run.task, run.readOnly), run.signal);
  };
}
