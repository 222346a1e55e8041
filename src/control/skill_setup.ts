/**
 * @module
 * A session's skills: loaded once at boot from the roots (src/tool/skill/loader.ts), their catalog block
 * put in the session-context message, the skill tools registered behind use_capability, and the catalog
 * handed to tools as the session's ProfileSource. A catalog that changed since a resumed session started
 * reaches the model on the tail of its next turn; the stored prefix is never rewritten.
 */
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import type { SessionRecord } from "../session/store.ts";
import { SkillCatalog } from "../tool/skill/catalog.ts";
import { loadSkills } from "../tool/skill/loader.ts";
import { skillTools } from "../tool/skill/tools.ts";
import { skillCapabilities } from "../tool/skill/capabilities.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { Workspace } from "../tool/tool.ts";

export interface SessionSkills {
  catalog: SkillCatalog;
  warnings: string[];
}

export async function loadSessionSkills(
  paths: Paths,
  config: ResolvedConfig,
  workspace: Workspace,
): Promise<SessionSkills> {
  const loaded = await loadSkills({
    workspace: workspace.root,
    home: paths.home,
    config: config.skills,
    hidden: workspace.forbidRead,
  });
  const catalog = new SkillCatalog(loaded, { implicit: !config.skills.disableImplicitInvocation });
  const skipped = loaded.diagnostics.filter((d) =>
    d.message.startsWith("skipped") || d.message.startsWith("not read")
  );
  const warnings = skipped.length === 0 ? [] : [
    `${skipped.length} skill file${skipped.length === 1 ? " was" : "s were"} not loaded: /skills shows why`,
  ];
  return { catalog, warnings };
}

/**
 * Registers read_skill, run_skill and read_only_skill (proxied) unless the model may not use skills, and
 * lists the skills in `use_capability` as `skill:<name>` entries.
 */
export function registerSkillTools(registry: ToolRegistry, catalog: SkillCatalog): void {
  if (!catalog.implicit) return;
  const registered = skillTools(catalog).filter((tool) => registry.register(tool, { proxied: true }));
  // A `skill:<name>` call is a read_skill call: with read_skill left out by [tools] enabled, none is listed.
  if (registered.some((tool) => tool.name === "read_skill")) {
    registry.addListed(skillCapabilities(() => catalog));
  }
}

/** The tail note telling the model the skills it may use now (after a `/reload` changed them). */
export function skillsNowNote(block: string | null): string {
  return block === null
    ? "The skills listed at the start of this session are no longer available."
    : `The skills available changed since this session started; they are now:\n${block}`;
}

/** A note for the tail when a resumed session's stored catalog differs from the current one. */
export function skillsChangeNote(records: readonly SessionRecord[], block: string | null): string | null {
  const context = records.find((r) => r.type === "message" && r.message.role === "user");
  const text = context?.type === "message" ? context.message.content : undefined;
  if (typeof text !== "string") return null;
  const stored = /<skills>[\s\S]*?<\/skills>/.exec(text)?.[0] ?? null;
  return stored === block ? null : skillsNowNote(block);
}
