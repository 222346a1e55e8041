/**
 * @module
 * Composes the kernel into a Controller: config → model → credential → provider, tools, sandbox,
 * gate, and a new or resumed session. Every face boots through here, so they all behave alike.
 */
import { resolve } from "node:path";
import { type ConfigFlags, loadConfig } from "../config/load.ts";
import { modelSettings } from "../config/models.ts";
import { resolveCredential } from "../config/credentials.ts";
import { type Paths, processEnv, resolvePaths } from "../config/paths.ts";
import { protectedPaths } from "../config/protected_paths.ts";
import { formatWarning } from "../config/errors.ts";
import { warningsToShow } from "../config/warn_once.ts";
import type { McpServerDecl, ProviderConfig, ResolvedConfig } from "../config/types.ts";
import { ReasonixError } from "../lib/errors.ts";
import { existingDir } from "./workspace_dir.ts";
import { createProvider } from "../provider/registry.ts";
import { normalizeEffort } from "../provider/effort.ts";
import { type SessionRecord, SessionStore } from "../session/store.ts";
import { openSession } from "./session_open.ts";
import { TOOLS_EVENT } from "../session/requests.ts";
import { findSessionQuery } from "../session/find.ts";
import { latestWithTurns } from "../session/listing.ts";
import { modelForSession } from "./resume_model.ts";
import { builtinRegistry, MODE_TOOLS } from "../tool/builtin/mod.ts";
import type { ToolRegistry } from "../tool/registry.ts";
import { callShape } from "../tool/catalog.ts";
import { historyTool } from "../tool/builtin/history.ts";
import { humanConsent } from "./consent.ts";
import { historyDirs } from "./session_search.ts";
import { newSessionToolState } from "../tool/session_state.ts";
import { JobTable } from "../tool/jobs.ts";
import { FsAgent, fsAgentSupported } from "../sandbox/fs_agent.ts";
import type { ToolContext, ToolSpec, Workspace } from "../tool/tool.ts";
import type { EditorFiles } from "../tool/editor_files.ts";
import type { EditorTerminal } from "../sandbox/editor_terminal.ts";
import { setupSandbox } from "./sandbox_setup.ts";
import { startMcpServers, withMcpTools } from "./mcp_boot.ts";
import { instructionPlace, instructionReader } from "./instruction_reader.ts";
import { archiveDir } from "../session/archive.ts";
import { setupPermissions } from "./permission_setup.ts";
import { Controller } from "./controller.ts";
import type { ControllerParts } from "./controller_parts.ts";
import type { Reboot } from "./session_switch.ts";
import { QuestionDesk } from "./questions.ts";
import { loadSessionMemory, memoryWiring } from "./memory_setup.ts";
import { PlanDesk, plansProposed } from "./plan_desk.ts";
import { workspaceOps, type WorkspaceOpsOptions } from "./workspace_ops.ts";
import { attachSubagents } from "./subagent_setup.ts";
import { loadSessionSkills, registerSkillTools } from "./skill_setup.ts";
import type { SkillCatalog } from "../tool/skill/catalog.ts";

export type ResumeRequest = { kind: "latest" } | { kind: "query"; query: string };

export interface BootOptions {
  /** The process working directory; `dir` (from --dir) resolves against it. */
  cwd: string;
  dir?: string;
  flags?: ConfigFlags;
  resume?: ResumeRequest;
  headless: boolean;
  env?: Record<string, string>;
  paths?: Paths;
  now?: () => Date;
  /** Tools added to the built-ins by a program that embeds Reasonix (and by tests). */
  extraTools?: readonly ToolSpec[];
  /** Someone can answer the `ask` tool (default: not headless; line mode answers on stdin). */
  answersQuestions?: boolean;
  /** The face can switch sessions (`/new`, `/resume`, `/model`): the Controller keeps how to boot the next. */
  switchable?: boolean;
  /** `--trust-project-mcp`: the project's MCP servers start this once without a recorded approval. */
  trustProjectMcp?: boolean;
  /** How long the first request waits for MCP servers still starting (mcp_tools.ts MCP_GRACE_MS). */
  mcpGraceMs?: number;
  /** MCP servers the face's user named for this session (an editor's, over ACP), beside the configured. */
  mcpServers?: readonly McpServerDecl[];
  /** The editor's file access (an ACP client's `fs/*`): read_file and the writers go through it. */
  editor?: EditorFiles;
  /** The editor's terminal (an ACP client's `terminal/*`): used only where commands run unsandboxed. */
  terminal?: EditorTerminal;
}

export async function bootController(options: BootOptions): Promise<Controller> {
  const parts = await bootParts(options);
  return new Controller(parts, options.switchable ? { reboot: rebooter(options) } : {});
}

function rebooter(options: BootOptions): Reboot {
  const { resume: _resume, ...base } = options;
  return {
    paths: options.paths ?? resolvePaths(options.env ?? processEnv()),
    flags: options.flags ?? {},
    boot: (change) => bootParts({ ...base, ...change }),
  };
}

async function bootParts(options: BootOptions): Promise<ControllerParts> {
  const env = options.env ?? processEnv();
  const paths = options.paths ?? resolvePaths(env);
  const workspaceRoot = await existingDir(resolve(options.cwd, options.dir ?? "."), "--dir");
  const flags = options.flags ?? {};
  const config = await loadConfig({ workspace: workspaceRoot, paths, flags });
  const warnings = (await warningsToShow(paths, config)).map(formatWarning);
  const resumedFile = await findResumeFile(paths, workspaceRoot, options.resume);
  const resumed = resumedFile ? await SessionStore.open(resumedFile) : undefined;
  try {
    return await bootWith(options, { env, paths, workspaceRoot, flags, config, warnings, resumed });
  } catch (error) {
    // The resumed session's lock goes with its store: a failed boot must not keep it held.
    resumed?.store.close();
    throw error;
  }
}

interface Booting {
  env: Record<string, string>;
  paths: Paths;
  workspaceRoot: string;
  flags: ConfigFlags;
  config: ResolvedConfig;
  warnings: string[];
  resumed: Awaited<ReturnType<typeof SessionStore.open>> | undefined;
}

async function bootWith(options: BootOptions, booting: Booting): Promise<ControllerParts> {
  const { env, paths, workspaceRoot, flags, config, warnings, resumed } = booting;
  // Usage errors (a bad --add-dir) come before configuration ones (an unknown model, a missing key).
  const workspace = await buildWorkspace(workspaceRoot, config, { addDirs: flags.addDirs ?? [], paths });
  const { modelRef, provider } = await sessionProvider(booting);
  const sandboxSetup = await setupSandbox({ config, paths, env, workspace, terminal: options.terminal });
  const { sandbox, tempDir } = sandboxSetup;
  if (sandboxSetup.warning) warnings.push(sandboxSetup.warning);
  const now = options.now ?? (() => new Date());
  const registry = builtinRegistry(options.extraTools ?? [], { enabled: config.tools.enabled });
  const capabilities = promptCapabilities(registry);
  const place = await instructionPlace(workspace.root, options.cwd);
  const memory = await loadSessionMemory(paths, workspace.root, registry);
  const skills = await loadSessionSkills(paths, config, workspace);
  const session = await bootSession(booting, modelRef, {
    capabilities,
    instructionTarget: place.target,
    workspace,
    sandbox,
    now: now(),
    memoryIndex: memory.indexBlock,
    skillCatalog: skills.catalog.block(),
  }).catch((error) => tempDir.remove().then(() => Promise.reject(error)));
  warnings.push(...session.warnings, ...memory.warnings, ...skills.warnings);
  lateTools(registry, { paths, root: workspace.root, session: session.log.id, skills: skills.catalog });
  const desks = await sessionDesks(options, session.log.since(0), {
    config,
    paths,
    flags,
    workspace,
    sandbox,
    summary: sandboxSetup.summary,
    messages: session.log.messages(),
    capabilities,
    instructionTarget: place.target,
    skills: skills.catalog,
  });
  const mcp = await sessionMcp(options, booting, workspace.root);
  const mem = memoryWiring(memory.store, { approvals: desks.approvals, interactive: !options.headless, now });
  const parts = await withMcpTools({
    log: session.log,
    turnNotes: session.notes,
    turnFacts: session.facts,
    resumed: resumed !== undefined,
    provider,
    providerConfig: modelRef.provider,
    model: modelRef.model,
    ...modelParams(config, modelRef, flags),
    registry,
    toolContext: toolContext(config, env, {
      workspace,
      sandbox,
      questions: desks.questions,
      memory: mem.access,
      plans: desks.plans,
      consent: humanConsent(desks.approvals, !options.headless),
      ...(options.editor ? { editor: options.editor } : {}),
      profiles: skills.catalog,
    }),
    skills: skills.catalog,
    recallMemory: mem.recall,
    ...desks,
    now,
    warnings,
    mcp: mcp.manager,
    onClose: () => tempDir.remove(),
    ...recordedTools(session.log.since(0)),
    contextWindow: modelSettings(config, modelRef).contextWindow,
    ...configuredSettings(config, paths),
    instructionFiles: instructionReader(paths, config, place),
  }, options.mcpGraceMs);
  // A memory change made mid-session reaches the model on the tail of its next turn, never its prefix.
  mem.attach((note) => parts.turnNotes = [...(parts.turnNotes ?? []), note]);
  attachSubagents(parts, { config, paths, env, now });
  return parts;
}

/** Opens (or resumes) the session file with the prefix parts this boot settled on. */
function bootSession(
  booting: Booting,
  modelRef: { model: string; provider: { name: string } },
  shape: Pick<
    Parameters<typeof openSession>[1],
    "capabilities" | "instructionTarget" | "workspace" | "sandbox" | "now" | "memoryIndex" | "skillCatalog"
  >,
) {
  const { paths, config, resumed } = booting;
  return openSession(paths, {
    ...shape,
    config,
    model: modelRef.model,
    provider: modelRef.provider.name,
    permissionMode: config.permissions.mode,
    ...(resumed ? { resumed } : {}),
  });
}

/** After the call shapes: the system prompt (and its cached bytes) stays as it was; use_capability finds them. */
function lateTools(
  registry: ToolRegistry,
  at: { paths: Paths; root: string; session: string; skills: SkillCatalog },
): void {
  const history = { ...historyDirs(at.paths), workspace: at.root, current: at.session };
  registry.register(historyTool(history), { proxied: true });
  registerSkillTools(registry, at.skills);
}

/** Effort, output limit and step budget: flags, then the model's overrides, then `[agent]`. */
function modelParams(
  config: ResolvedConfig,
  modelRef: { model: string; provider: ProviderConfig },
  flags: ConfigFlags,
) {
  const override = config.modelOverrides[modelRef.model];
  const maxTokens = override?.maxOutputTokens ?? modelRef.provider.maxOutputTokens;
  return {
    effort: flags.effort ? normalizeEffort(flags.effort) : (override?.effort ?? config.agent.effort),
    ...(maxTokens > 0 ? { maxTokens } : {}),
    maxSteps: flags.maxSteps ?? config.agent.maxSteps,
  };
}

/** The proxied tools the system prompt names. submit_plan and update_goal are named by their mode's note
 * when it applies, so the system prompt is the same in every mode. */
function promptCapabilities(registry: ToolRegistry) {
  const listed = registry.proxiedNames().filter((name) => !MODE_TOOLS.includes(name));
  return listed.map((name) => callShape(registry, name));
}

/** The session's MCP servers, started in the background; their warnings join the session's. */
async function sessionMcp(options: BootOptions, booting: Booting, root: string) {
  const { env, paths, flags, config, warnings } = booting;
  const mcp = await startMcpServers(config, {
    workspace: root,
    paths,
    env,
    flags,
    interactive: !options.headless,
    ...(options.trustProjectMcp ? { trustProjectServers: true } : {}),
    ...(options.mcpServers ? { extra: options.mcpServers } : {}),
  });
  warnings.push(...mcp.warnings);
  return mcp;
}

/** The session's model (flag, else the resumed session's, else the default) and its provider with its key. */
async function sessionProvider(booting: Booting) {
  const { env, paths, workspaceRoot, flags, config, warnings, resumed } = booting;
  const modelRef = modelForSession(config, {
    ...(flags.model ? { flag: flags.model } : {}),
    ...(resumed ? { header: resumed.session.header } : {}),
  });
  const stored = resumed?.session.header.model;
  if (stored && stored !== modelRef.model) warnings.push(coldCacheWarning(stored, modelRef.model));
  const credential = await resolveCredential(modelRef.provider, {
    config,
    paths,
    env,
    workspace: workspaceRoot,
  });
  warnings.push(...credential.warnings ?? []);
  return { modelRef, provider: providerFor(config, modelRef.provider, credential.key) };
}

function providerFor(config: ResolvedConfig, providerConfig: ProviderConfig, apiKey: string | undefined) {
  return createProvider(providerConfig, {
    ...(apiKey ? { apiKey } : {}),
    maxRetries: config.network.maxRetries,
    retryBaseMs: config.network.retryBaseMs,
    timeouts: {
      connectMs: config.network.connectTimeoutSeconds * 1000,
      firstByteMs: config.network.firstByteTimeoutSeconds * 1000,
      idleMs: config.network.idleTimeoutSeconds * 1000,
    },
  });
}

function toolContext(
  config: ResolvedConfig,
  env: Record<string, string>,
  parts: Pick<
    ToolContext,
    "workspace" | "sandbox" | "questions" | "memory" | "plans" | "consent" | "editor" | "profiles"
  >,
): Omit<ToolContext, "signal"> {
  return {
    ...parts,
    limits: {
      bashTimeoutSeconds: config.tools.bashTimeoutSeconds,
      outputBudgetBytes: config.tools.outputBudgetBytes,
    },
    state: newSessionToolState(),
    network: {
      allowed: config.sandbox.network !== false,
      allowPrivate: config.tools.webFetchAllowPrivate,
    },
    jobs: new JobTable(),
    ...(fsAgentSupported() ? { files: new FsAgent(env) } : {}),
  };
}

/** Where a person comes in: the approval desk and gate, the `ask` tool's questions, the workspace commands. */
async function sessionDesks(
  options: BootOptions,
  records: readonly SessionRecord[],
  parts: Omit<WorkspaceOpsOptions, "root" | "permissions"> & { workspace: Workspace },
) {
  const { config, paths, workspace } = parts;
  const permissions = await setupPermissions({ config, paths, workspace, headless: options.headless });
  return {
    gate: permissions.gate,
    approvals: permissions.approvals,
    questions: new QuestionDesk({ interactive: options.answersQuestions ?? !options.headless }),
    plans: new PlanDesk({
      approvals: permissions.approvals,
      interactive: !options.headless || options.answersQuestions === true,
      revisions: plansProposed(records),
    }),
    workspaceOps: workspaceOps({ ...parts, root: workspace.root, permissions }),
  };
}

function configuredSettings(config: ResolvedConfig, paths: Paths) {
  const { compactRatio, compactForceRatio, snipRatio, reasoningLanguage, delivery, verifyCommands } =
    config.agent;
  return {
    archiveDir: archiveDir(paths.stateHome),
    ...(compactForceRatio !== undefined ? { compactForceRatio } : {}),
    ...(snipRatio !== undefined ? { snipRatio } : {}),
    checkpointRetentionDays: config.sessions.retentionDays,
    ui: { language: config.language, ...config.ui },
    ...(compactRatio !== undefined ? { compactRatio } : {}),
    ...(reasoningLanguage ? { reasoningLanguage } : {}),
    ...(delivery ? { delivery } : {}),
    ...(verifyCommands ? { verifyCommands } : {}),
  };
}

function coldCacheWarning(stored: string, model: string): string {
  return `This session was started with "${stored}"; continuing it with "${model}" starts a cold cache`;
}

async function findResumeFile(
  paths: Paths,
  workspace: string,
  request: ResumeRequest | undefined,
): Promise<string | undefined> {
  if (!request) return undefined;
  if (request.kind === "query") return await findSessionQuery(paths.sessionsDir, workspace, request.query);
  const latest = await latestWithTurns(paths.sessionsDir, workspace);
  if (latest) return latest;
  throw new ReasonixError("session.none", `No previous session to continue in ${workspace}`, {
    hint: "Start one without --continue",
  });
}

async function buildWorkspace(
  root: string,
  config: ResolvedConfig,
  options: { addDirs: string[]; paths: Paths },
): Promise<Workspace> {
  const extra: string[] = [];
  for (const dir of [...options.addDirs.map((d) => resolve(root, d)), ...config.sandbox.allowWrite]) {
    extra.push(await existingDir(dir, "--add-dir"));
  }
  const extraWritable = [...new Set(extra)];
  const { hidden, readOnly } = protectedPaths(config, options.paths, [root, ...extraWritable]);
  return { root, extraWritable, forbidRead: hidden, readOnly };
}

function recordedTools(records: readonly SessionRecord[]): { recordedToolsJson?: string } {
  const event = records.findLast((r) => r.type === "event" && r.name === TOOLS_EVENT);
  const json = event?.type === "event" ? (event.data as { json?: unknown } | undefined)?.json : undefined;
  return typeof json === "string" ? { recordedToolsJson: json } : {};
}
