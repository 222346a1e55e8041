/**
 * @module
 * Wires subagents into a booted session: the shared pool from `[agent]`, the session's SubagentPort
 * and result view on its ToolContext, and the five subagent tools registered proxied after the system
 * prompt was built, so neither the tools array nor the system prompt changes. A skills module that
 * provides profiles sets `toolContext.profiles` the same way.
 */
import type { Paths } from "../config/paths.ts";
import type { ResolvedConfig } from "../config/types.ts";
import { subagentTools } from "../tool/builtin/subagents.ts";
import type { ProfileSource } from "../tool/subagent_port.ts";
import type { ControllerParts } from "./controller_parts.ts";
import { setupSandbox } from "./sandbox_setup.ts";
import type { ChildSandbox, SubagentHost } from "./subagent_host.ts";
import { DEFAULT_LIMITS, SubagentPool } from "./subagent_pool.ts";
import { ChildResults } from "./subagent_results.ts";
import { SubagentRunner } from "./subagent_runner.ts";
import { ChildRecall } from "./subagent_recall.ts";
import { profileRunner } from "./subagent_profile_run.ts";
import { spendRecord } from "../session/child_spend.ts";

export interface SubagentBoot {
  config: ResolvedConfig;
  paths: Paths;
  env: Record<string, string>;
  now: () => Date;
  profiles?: ProfileSource;
}

export function attachSubagents(parts: ControllerParts, boot: SubagentBoot): SubagentPool {
  const settings = boot.config.agent.subagents ?? {};
  const workspace = parts.toolContext.workspace;
  const recall = new ChildRecall({
    sessionsDir: boot.paths.sessionsDir,
    workspace: workspace.root,
    conversation: parts.log.id,
  });
  const pool = new SubagentPool({
    maxDepth: settings.maxDepth ?? DEFAULT_LIMITS.maxDepth,
    maxConcurrency: settings.maxConcurrency ?? DEFAULT_LIMITS.maxConcurrency,
    maxParallelWriters: settings.maxParallelWriters ?? DEFAULT_LIMITS.maxParallelWriters,
  }, recall);
  const host: SubagentHost = {
    provider: parts.provider,
    providerConfig: parts.providerConfig,
    model: parts.model,
    effort: parts.effort,
    ...(parts.maxTokens ? { maxTokens: parts.maxTokens } : {}),
    maxSteps: parts.maxSteps,
    settings,
    sessionsDir: boot.paths.sessionsDir,
    gate: parts.gate,
    toolContext: parts.toolContext,
    enabled: boot.config.tools.enabled,
    sandboxFor: (writable) => childSandbox(boot, parts, writable),
    now: boot.now,
  };
  const port = new SubagentRunner(host, pool, {
    sessionId: parts.log.id,
    depth: 0,
    workspace,
    signalEvent: (event) => pool.emit(event),
    recordSpend: (spend) => parts.log.append(spendRecord(spend, boot.now())),
  });
  // In place: whatever already holds the session's tool context sees the port too.
  Object.assign(parts.toolContext, {
    subagents: port,
    subagentResults: new ChildResults(pool),
    ...(boot.profiles ? { profiles: boot.profiles } : {}),
  });
  for (const tool of subagentTools()) parts.registry.register(tool, { proxied: true });
  if (parts.workspaceOps) {
    parts.workspaceOps.subagents = pool;
    parts.workspaceOps.runProfile = profileRunner(() => parts);
  }
  const close = parts.onClose;
  parts.onClose = async () => {
    pool.cancelAll();
    await close?.();
  };
  return pool;
}

async function childSandbox(
  boot: SubagentBoot,
  parts: ControllerParts,
  writable: readonly string[],
): Promise<ChildSandbox> {
  const setup = await setupSandbox({
    config: boot.config,
    paths: boot.paths,
    env: boot.env,
    workspace: parts.toolContext.workspace,
    writable,
  });
  return {
    sandbox: setup.sandbox,
    enforced: setup.summary.backend !== "none" && !setup.summary.disabled,
    remove: () => setup.tempDir.remove(),
  };
}
