/**
 * @module
 * `/reload`: re-reads reasonix.toml and the remembered permission grants. Permission rules and the
 * configured mode apply at once; a config error leaves the old settings in force. Instruction files
 * are only compared: the running session keeps its system prompt (its cached prefix), so changes to
 * them apply from the next session. Skills are re-read from their roots and replace the session's catalog
 * in place; a changed catalog is told to the model on the tail of its next turn (as for a resumed session),
 * never in its prefix.
 */
import { type ConfigFlags, loadConfig } from "../config/load.ts";
import type { Paths } from "../config/paths.ts";
import type { PermissionMode, ResolvedConfig } from "../config/types.ts";
import { formatWarning } from "../config/errors.ts";
import { warningsToShow } from "../config/warn_once.ts";
import { errorMessage } from "../lib/errors.ts";
import { buildSystemPrompt } from "../prompt/system.ts";
import type { Approvals } from "./approvals.ts";
import { sessionInstructions } from "./instruction_reader.ts";
import type { SkillCatalog } from "../tool/skill/catalog.ts";
import type { Workspace } from "../tool/tool.ts";
import { loadSessionSkills, skillsNowNote } from "./skill_setup.ts";

export type ReloadResult =
  | { kind: "failed"; message: string }
  | {
    kind: "reloaded";
    files: string[];
    warnings: string[];
    /** Set when the configured permission mode changed and now applies. */
    mode?: PermissionMode;
    /** The instruction files (or the custom system prompt) differ from the running session's. */
    instructionsChanged: boolean;
    /** The skills the model may use changed (told on the tail of the next turn). */
    skillsChanged?: boolean;
  };

export interface ReloadOptions {
  workspace: string;
  /** The directory instruction files are read down to (default the workspace root). */
  instructionTarget?: string;
  paths: Paths;
  flags: ConfigFlags;
  config: ResolvedConfig;
  approvals: Approvals;
  applyPermissions: (config: ResolvedConfig) => Promise<void>;
  /** The running session's system prompt. */
  systemPrompt: () => string | undefined;
  /** Call shapes of the proxied tools, as the system prompt names them. */
  capabilities?: readonly string[];
  /** The session's skills, re-read on each reload, and where a note for the next turn's tail goes. */
  skills?: { catalog: SkillCatalog; workspace: Workspace; tell: (note: string) => void };
}

export class Reloader {
  #options: ReloadOptions;
  #config: ResolvedConfig;

  constructor(options: ReloadOptions) {
    this.#options = options;
    this.#config = options.config;
  }

  async reload(): Promise<ReloadResult> {
    const { workspace, paths, flags } = this.#options;
    let next: ResolvedConfig;
    try {
      next = await loadConfig({ workspace, paths, flags });
      await this.#options.applyPermissions(next);
    } catch (error) {
      return { kind: "failed", message: errorMessage(error) };
    }
    const before = this.#config;
    this.#config = next;
    const modeChanged = next.permissions.mode !== before.permissions.mode;
    if (modeChanged) this.#options.approvals.mode = next.permissions.mode;
    const target = this.#options.instructionTarget ?? workspace;
    const instructions = await sessionInstructions(paths, next.sandbox.forbidRead, {
      root: workspace,
      target,
    });
    const skills = await this.#reloadSkills(next);
    const custom = next.agent.systemPrompt;
    const prompt = buildSystemPrompt({
      ...(custom ? { custom } : {}),
      instructions: instructions.files,
      ...(this.#options.capabilities ? { capabilities: this.#options.capabilities } : {}),
    });
    return {
      kind: "reloaded",
      files: [...next.files],
      warnings: [
        ...(await warningsToShow(paths, next)).map(formatWarning),
        ...instructions.warnings,
        ...skills.warnings,
      ],
      ...(modeChanged ? { mode: next.permissions.mode } : {}),
      instructionsChanged: prompt !== this.#options.systemPrompt(),
      ...(skills.changed ? { skillsChanged: true } : {}),
    };
  }

  async #reloadSkills(config: ResolvedConfig): Promise<{ changed: boolean; warnings: string[] }> {
    const skills = this.#options.skills;
    if (skills === undefined) return { changed: false, warnings: [] };
    const fresh = await loadSessionSkills(this.#options.paths, config, skills.workspace);
    const before = skills.catalog.block();
    skills.catalog.replace(fresh.catalog);
    const after = skills.catalog.block();
    if (after === before) return { changed: false, warnings: fresh.warnings };
    skills.tell(skillsNowNote(after));
    return { changed: true, warnings: fresh.warnings };
  }
}
