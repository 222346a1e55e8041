/**
 * @module
 * Control's public surface, the one module the faces (src/frontends/*) import: boot a Controller,
 * subscribe to its events, `submit` what the person types and render; the admin commands below are
 * for the CLI. scripts/check_layers.ts enforces that faces import nothing else from control.
 */
export { bootController, type BootOptions } from "./boot.ts";
export { type Activity, activityText, nextActivity } from "./activity.ts";
export { progressLine } from "./tool_progress.ts";
export type { Controller } from "./controller.ts";
export type {
  ApprovalChoice,
  ApprovalRequest,
  ErrorInfo,
  GoalSnapshot,
  Question,
  QuestionAnswer,
  ReasonixEvent,
  TurnSubtype,
} from "./events.ts";
export type { EventSource, QuestionPort, StatusPort, SubmitPort, TurnControl, UiSettings } from "./ports.ts";
export type { FaceHooks, SubmitResult } from "./submit.ts";
export type { ReviewRange, ReviewTurn } from "./review.ts";
export {
  type ProfileSpec,
  subagentCreate,
  subagentDelete,
  subagentEdit,
  subagentList,
} from "./subagent_admin.ts";
export type { TurnOutcome, TurnTotals } from "./turn_outcome.ts";
export type { PendingQuestion, QuestionReply } from "./questions.ts";
export type { PlanPort } from "./plan_desk.ts";
export type { PlanDecision, PlanStep, ProposedPlan } from "../tool/plan.ts";
export type { EditorFiles } from "../tool/editor_files.ts";
export type { EditorTerminal, TerminalRequest, TerminalRun } from "../sandbox/editor_terminal.ts";
export { planText } from "./plan_text.ts";
export { goalEventText, statusText as goalStatusText } from "./goal/record.ts";
export type { GoalPort } from "./goal/desk.ts";
export { approvalLine } from "./approval_line.ts";
export type {
  ChoiceList,
  CommandContext,
  CommandHost,
  CommandRegistry,
  DisplayPort,
  LanguageChoice,
  ThemeChoice,
} from "./commands/registry.ts";
export { type RewindScope, UNTRACKED_NOTE } from "./rewind.ts";
export { explainError, stopError, type StopSignal } from "./explain.ts";
export { interruptAndSettle, SETTLE_MS } from "./turn_settle.ts";
export { existingDir } from "./workspace_dir.ts";
export { type HistoryPort, openInputHistory } from "./input_history.ts";
export { escapePath } from "./mentions.ts";
export { mcpMentionTargets } from "./mcp_resources.ts";
export {
  currentDefaultModel,
  existingKey,
  existingKeySource,
  type KeyTest,
  type ModelChoice,
  modelChoices,
  needsSetup,
  type SetupContext,
  storeKey,
  testKey,
} from "./setup.ts";
export {
  configTarget,
  type ConfigWrite,
  customChoice,
  type CustomProvider,
  keyEnvFor,
  keyOptional,
  writeCustomProvider,
  writeDefaultModel,
} from "./setup_write.ts";

// The admin commands: config, trust, permission, doctor, cache, session, upgrade, the write fence.
export { type AdminContext, adminContext, configGet, configSet, trustProviderKey } from "./admin.ts";
export { compactRatio } from "./compact_ratio.ts";
export { configFileEntries, configKeyReport, formatConfigFiles, formatKeyReport } from "./config_report.ts";
export { explainSessionCache, formatCacheReport } from "./cache_explain.ts";
export { formatChecks, sandboxChecks } from "./doctor.ts";
export { FENCED_ENV, NO_FENCE_ENV, runFenced } from "./fence.ts";
export { explainPermission, formatExplanation } from "./permission_explain.ts";
export {
  approveProjectTrust,
  formatTrustReview,
  reviewProjectTrust,
  revokeProjectTrust,
} from "./project_trust.ts";
export { sessionList, sessionStatus, sessionTranscript, type TranscriptEntry } from "./session_report.ts";
export { type HistoryHit, type HistorySearchResult, sessionSearch } from "./session_search.ts";
export { sessionCheckpoints, sessionRewind } from "./session_rewind.ts";
export { deleteSession } from "./session_delete.ts";
export type { RewindOutcome, RewindRequest, RewindState } from "./rewind.ts";
export { ACCEPTED_EFFORTS, normalizeEffort } from "../provider/effort.ts";
export type { ResolvedConfig, ServeAuthMode, ServeConfig } from "../config/types.ts";
export { loadConfig } from "../config/load.ts";
export { manifestUrl, upgrade } from "./upgrade.ts";
export {
  mcpAdd,
  mcpImport,
  mcpRemove,
  mcpRevoke,
  mcpServer,
  type McpServerEntry,
  type McpServerInput,
  mcpServers,
  mcpServerTools,
  type McpTool,
  mcpToolName,
  mcpTrust,
  referencedVariables,
} from "./mcp_admin.ts";
export { mcpLoggedIn, mcpLogin, type McpLoginIo, mcpLogout } from "./mcp_auth.ts";
