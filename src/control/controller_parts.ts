/**
 * @module
 * What a Controller is built from: the session log, the provider, the tools and gate, and the desks
 * and settings the faces reach through it. Boot assembles it; tests assemble their own.
 */
import type { RunningCommands } from "./running_commands.ts";
import type { Gate } from "../agent/dispatch.ts";
import type { ProviderConfig } from "../config/types.ts";
import type { Effort, Provider } from "../provider/provider.ts";
import type { SessionLog } from "../session/log.ts";
import type { McpManager } from "../mcp/manager.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import type { ToolContext } from "../tool/tool.ts";
import type { Approvals } from "./approvals.ts";
import type { UiSettings } from "./ports.ts";
import type { QuestionDesk } from "./questions.ts";
import type { PlanDesk } from "./plan_desk.ts";
import type { ReasoningLanguage } from "./reasoning_language.ts";
import type { DeliveryMode } from "../config/types.ts";
import type { WorkspaceOps } from "./workspace_ops.ts";
import type { RewindTarget } from "./rewind.ts";
import type { BranchTarget } from "./branches.ts";
import type { InstructionFile } from "../prompt/system.ts";
import type { SkillCatalog } from "../tool/skill/catalog.ts";

export interface ControllerParts {
  /** The session's event log: the file, and the provider history derived from it. */
  log: SessionLog;
  resumed: boolean;
  provider: Provider;
  providerConfig: ProviderConfig;
  model: string;
  effort: Effort;
  maxTokens?: number;
  maxSteps: number;
  registry: ToolRegistry;
  toolContext: Omit<ToolContext, "signal">;
  gate: Gate;
  now?: () => Date;
  /** Warnings found while booting (config, model switch); replayed to each new subscriber. */
  warnings?: string[];
  /** The remembered facts a user message recalls, as a tail note (null: none); absent without memory. */
  recallMemory?: (text: string) => Promise<string | null>;
  /** What changed since the session last ran: added to the tail of the next user message. */
  turnNotes?: string[];
  /** Slash commands running outside a turn (subagent skills); `interrupt()` aborts them. */
  stops?: RunningCommands;
  /** Recorded with the first turn, so a later resume can tell what changed. */
  turnFacts?: unknown;
  /** The tool schema bytes the session last recorded (resumed sessions), so unchanged ones are not repeated. */
  recordedToolsJson?: string;
  /** The model's context window; without it the context is never compacted automatically. */
  contextWindow?: number;
  compactRatio?: number;
  /** `[agent] compact_force_ratio`: past it a compaction happens even without a summary. */
  compactForceRatio?: number;
  /** `[agent] tool_result_snip_ratio`: past it stale tool results are shortened. */
  snipRatio?: number;
  /** `<state>/archive`: where compactions keep the messages they take out. */
  archiveDir?: string;
  /** Re-reads the instruction files from disk (a compaction tells the model what changed). */
  instructionFiles?: () => Promise<InstructionFile[]>;
  /** Releases what the session held beyond its store (its private temp dir). */
  onClose?: () => Promise<void>;
  /** The approval desk the gate asks; without it every "ask" fails closed. */
  approvals?: Approvals;
  /** `language` and `[ui]` as the config resolved them, for the face. */
  ui?: UiSettings;
  /** `[agent] reasoning_language`; anything but auto is told to the model on the first turn. */
  reasoningLanguage?: ReasoningLanguage;
  /** `[agent] delivery`: "verify" turns verified delivery's gates on (src/control/delivery/policy.ts). */
  delivery?: DeliveryMode;
  /** `[agent] verify_commands`: command prefixes verified delivery and goal mode count as checks. */
  verifyCommands?: readonly string[];
  /** The desk the `ask` tool puts its questions to (also `toolContext.questions`). */
  questions?: QuestionDesk;
  /** Plan mode and the plan waiting for review (also `toolContext.plans`). */
  plans?: PlanDesk;
  /** `/memory`, `/remember`, `/forget`, `/diff`, `/sandbox`, `/reload`. */
  workspaceOps?: WorkspaceOps;
  /** The session's MCP servers, started in the background at boot. */
  mcp?: McpManager;
  /** Before each turn's requests: fixes the MCP tools in the tools array once, then notes later ones. */
  toolsReady?: () => Promise<void>;
  /** The session's skills (`/name`, `/skills`); also `toolContext.profiles`. */
  skills?: SkillCatalog;
  /** `[sessions] retention_days`: how long file checkpoints are kept. */
  checkpointRetentionDays?: number;
}

/** Where rewinds and branch switches read the session's records and append their own. */
export function rewindTargetOf(parts: ControllerParts): RewindTarget & BranchTarget {
  const { log, toolContext, now } = parts;
  return {
    store: log,
    records: () => log.since(0),
    workspace: toolContext.workspace,
    now: now ?? (() => new Date()),
  };
}

const DEFAULT_UI: UiSettings = { language: "auto", theme: "auto", showTurnUsage: true, showReasoning: true };

/** The face's display settings as the config resolved them (a copy), or the defaults. */
export function uiSettingsOf(parts: ControllerParts): UiSettings {
  return { ...(parts.ui ?? DEFAULT_UI) };
}
