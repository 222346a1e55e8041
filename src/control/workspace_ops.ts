/**
 * @module
 * What the workspace commands (`/memory`, `/remember`, `/forget`, `/diff`, `/sandbox`, `/reload`)
 * act on, built once per session at boot and reached through `Controller.workspaceOps`.
 */
import type { ConfigFlags } from "../config/load.ts";
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import type { ChatMessage } from "../provider/provider.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { type WorkspaceDiff, workspaceDiff } from "./git_diff.ts";
import { Memory } from "./memory.ts";
import { sessionInstructions } from "./instruction_reader.ts";
import type { LoadedInstructions } from "../prompt/instructions.ts";
import type { PermissionSetup } from "./permission_setup.ts";
import { Reloader, type ReloadResult } from "./reload.ts";
import type { SandboxSummary } from "./sandbox_setup.ts";
import { type ReviewRange, type ReviewTurn, reviewTurn } from "./review.ts";
import type { SkillCatalog } from "../tool/skill/catalog.ts";
import type { Workspace } from "../tool/tool.ts";

import type { SubagentControl } from "./subagent_pool.ts";
import type { ProfileRunner } from "./subagent_profile_run.ts";

export interface WorkspaceOps {
  readonly memory: Memory;
  /** The instruction files as a session starting now would load them (`/memory instructions`). */
  instructions(): Promise<LoadedInstructions>;
  readonly sandbox: SandboxSummary;
  diff(): Promise<WorkspaceDiff>;
  reload(): Promise<ReloadResult>;
  /** The running subagents (`/agents`); set at boot. */
  subagents?: SubagentControl;
  /** `reasonix subagent try|run`: one profile as a child of this session; set at boot. */
  runProfile?: ProfileRunner;
  /** Where `/reload` sends a note for the next turn's tail (a changed skill catalog); set at wiring. */
  attachNotes(tell: (note: string) => void): void;
  /** The turn `reasonix review` runs: the change as a diff, the session's review skill pinned. */
  review(range: ReviewRange): Promise<ReviewTurn>;
}

export interface WorkspaceOpsOptions {
  root: string;
  paths: Paths;
  flags: ConfigFlags;
  config: ResolvedConfig;
  sandbox: Sandbox;
  summary: SandboxSummary;
  permissions: PermissionSetup;
  /** The session's messages; the first is its system prompt. */
  messages: readonly ChatMessage[];
  /** Call shapes of the proxied tools, as the system prompt names them. */
  capabilities?: readonly string[];
  /** The directory instruction files are read down to (default the root). */
  instructionTarget?: string;
  /** The session's skills (`review` reads its skill from them; `/reload` re-reads them). */
  skills?: SkillCatalog;
  /** The session's workspace (`/reload` reads skills with its hidden paths). */
  workspace?: Workspace;
}

export function workspaceOps(options: WorkspaceOpsOptions): WorkspaceOps {
  const { root, paths, permissions } = options;
  const target = options.instructionTarget ?? root;
  let tell: (note: string) => void = () => {};
  const { skills, workspace } = options;
  const reloader = new Reloader({
    workspace: root,
    instructionTarget: target,
    paths,
    flags: options.flags,
    config: options.config,
    approvals: permissions.approvals,
    applyPermissions: permissions.reload,
    ...(options.capabilities ? { capabilities: options.capabilities } : {}),
    ...(skills && workspace ? { skills: { catalog: skills, workspace, tell: (note) => tell(note) } } : {}),
    systemPrompt: () => {
      const first = options.messages[0];
      return first?.role === "system" ? first.content : undefined;
    },
  });
  return {
    memory: new Memory({ home: paths.home, workspace: root, target }),
    instructions: () => sessionInstructions(paths, options.config.sandbox.forbidRead, { root, target }),
    sandbox: options.summary,
    diff: () => workspaceDiff(options.sandbox, root),
    reload: () => reloader.reload(),
    attachNotes: (next) => tell = next,
    review: (range) => reviewTurn({ sandbox: options.sandbox, root, skills: options.skills }, range),
  };
}
