/**
 * @module
 * The skills the model may use, as `use_capability` catalogue entries (`skill:<name>`, kind "skill"):
 * listed and searched beside the proxied tools, never in the tools array or the system prompt. A call to
 * `skill:<name>` loads the skill (capability.ts). Read on each answer, so a reloaded catalog shows.
 */
import type { ListedCapability } from "../registry.ts";
import type { SkillCatalog } from "./catalog.ts";

export function skillCapabilities(catalog: () => SkillCatalog): () => readonly ListedCapability[] {
  return () =>
    catalog().modelSkills().map((skill) => ({
      id: `skill:${skill.name}`,
      kind: "skill" as const,
      name: skill.name,
      // An inline skill only hands over instructions; a subagent skill is read-only when it says so.
      read_only: skill.runAs === "inline" || skill.readOnly,
      description: `${skill.runAs === "subagent" ? "(subagent) " : ""}${skill.description}`,
    }));
}
