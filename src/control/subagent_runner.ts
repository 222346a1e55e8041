/**
 * @module
 * SubagentPort for one session (depth 0) or one child (depth ≥ 1): checks the depth limit, resolves
 * the claim against its own workspace (a child's claim must sit inside its parent's), takes a slot
 * from the shared pool, then runs the child in its own session with its own sandbox, temp dir,
 * registry and gate, and no memory. Its signal follows the caller's, so cancelling the parent turn
 * cancels every child; `SubagentPool.cancel` stops one.
 */
import { errorMessage } from "../lib/errors.ts";
import type { ReasonixEvent, SubagentEvent } from "../agent/events.ts";
import { normalizeEffort } from "../provider/effort.ts";
import type { Effort } from "../provider/provider.ts";
import type { SubagentOutcome, SubagentPort, SubagentRequest } from "../tool/subagent_port.ts";
import { type ToolContext, ToolError, type Workspace } from "../tool/tool.ts";
import { describeClaim, resolveClaim, type WriteClaim } from "../tool/write_claims.ts";
import { CHILD_PROMPT, closeChildLog, openChildLog, runChild } from "./subagent_child.ts";
import { childGate } from "./subagent_gate.ts";
import { childRegistry, type SubagentHost } from "./subagent_host.ts";
import type { SubagentPool } from "./subagent_pool.ts";
import { ChildResults } from "./subagent_results.ts";
import { reopenChildLog } from "./subagent_continue.ts";
import { storedRequest } from "./subagent_recall.ts";
import { newSessionToolState } from "../tool/session_state.ts";
import { type ChildSpend, spendOf, spendRecord } from "../session/child_spend.ts";

export interface Lineage {
  /** The session whose tools call this port. */
  sessionId: string;
  depth: number;
  workspace: Workspace;
  signalEvent: (event: SubagentEvent) => void;
  /** Records what a finished child spent in this session's log (a `subagent_usage` record). */
  recordSpend: (spend: ChildSpend) => Promise<unknown>;
}

export class SubagentRunner implements SubagentPort {
  readonly #host: SubagentHost;
  readonly #pool: SubagentPool;
  readonly #lineage: Lineage;

  constructor(host: SubagentHost, pool: SubagentPool, lineage: Lineage) {
    this.#host = host;
    this.#pool = pool;
    this.#lineage = lineage;
  }

  async run(asked: SubagentRequest, signal: AbortSignal): Promise<SubagentOutcome> {
    const continued = asked.continueFrom === undefined
      ? undefined
      : await this.#pool.finished.continued(asked, this.#lineage.sessionId);
    if (continued && asked.readOnly && !continued.request.readOnly) {
      // A read-only entry point (read_only_skill) runs without asking; it must not reopen a writer.
      throw new ToolError(
        "subagent.read_only",
        `Cannot continue "${asked.continueFrom}" read-only: it was a writer subagent (continue it with task)`,
      );
    }
    const request = continued?.request ?? asked;
    const depth = this.#lineage.depth + 1;
    const limits = this.#pool.limits;
    if (depth > limits.maxDepth) {
      throw new ToolError(
        "subagent.depth_limit",
        `A subagent at depth ${depth} would pass [agent] max_subagent_depth (${limits.maxDepth}); do it yourself`,
      );
    }
    const claim = request.readOnly ? null : await resolveClaim(this.#lineage.workspace, request.writePaths);
    const admission = await this.#pool.admit(claim, { wait: this.#lineage.depth === 0, signal });
    try {
      return await this.#start(request, {
        claim,
        depth,
        signal,
        ...(continued ? { file: continued.file } : {}),
      });
    } finally {
      admission.release();
    }
  }

  async #start(
    request: SubagentRequest,
    at: { claim: WriteClaim | null; depth: number; signal: AbortSignal; file?: string },
  ): Promise<SubagentOutcome> {
    const host = this.#host;
    const { model, effort } = choose(host, request);
    const parentWs = this.#lineage.workspace;
    const workspace: Workspace = { ...parentWs, writeClaim: at.claim?.paths ?? [] };
    const description = request.description ?? request.prompt.slice(0, 80);
    const log = at.file
      ? await reopenChildLog(at.file, request.prompt, host.now())
      : await openChildLog(host, {
        parentId: this.#lineage.sessionId,
        depth: at.depth,
        description,
        prompt: request.prompt,
        system: request.profile?.body ?? CHILD_PROMPT,
        context: contextLines(workspace, at.claim),
        model,
        ...(request.profile ? { profile: request.profile.name } : {}),
        request: storedRequest(request),
      });
    const fromSeq = at.file ? log.lastSeq : 0; // a continued child: only this run's requests are new
    const abort = new AbortController();
    const signal = AbortSignal.any([at.signal, abort.signal]);
    const event = this.#eventBase(log.id, at.depth, description, at.claim !== null);
    const untrack = this.#pool.track({ ...event, sessionId: log.id, abort });
    this.#lineage.signalEvent({ ...event, phase: "started" });
    let outcome: SubagentOutcome = { ok: false, text: "", ref: `subagent:${log.id}`, sessionId: log.id };
    try {
      outcome = await this.#loop(request, {
        log,
        workspace,
        claim: at.claim,
        depth: at.depth,
        model,
        effort,
        signal,
      });
    } catch (error) {
      const text = signal.aborted
        ? `The subagent was cancelled: ${errorMessage(signal.reason ?? error)}`
        : errorMessage(error);
      outcome = { ...outcome, ok: false, text };
      await closeChildLog(log, { subtype: "error_during_execution", result: text }, host.now()).catch(
        () => {},
      );
    } finally {
      untrack(outcome.ok);
    }
    // Finished, failed or cancelled, the requests it made are spent: they count in the parent's figures.
    const spent = spendOf(log.id, log.since(0), fromSeq);
    if (spent.requests > 0) {
      await this.#lineage.recordSpend(spent).catch(() => {});
      this.#lineage.signalEvent({ ...event, phase: "spent", spent });
    }
    this.#pool.keep(outcome.ref, outcome.text);
    this.#pool.finished.remember(outcome.ref, { file: log.file, parentId: this.#lineage.sessionId, request });
    this.#lineage.signalEvent({
      ...event,
      phase: "done",
      ok: outcome.ok,
      preview: outcome.text.slice(0, 400),
    });
    return outcome;
  }

  async #loop(
    request: SubagentRequest,
    run: {
      log: Awaited<ReturnType<typeof openChildLog>>;
      workspace: Workspace;
      claim: WriteClaim | null;
      depth: number;
      model: string;
      effort: Effort;
      signal: AbortSignal;
    },
  ): Promise<SubagentOutcome> {
    const host = this.#host;
    const sandbox = await host.sandboxFor(existingPaths(run.claim));
    try {
      const nested = run.depth < this.#pool.limits.maxDepth;
      const registry = childRegistry(host, {
        readOnly: request.readOnly,
        narrow: [request.tools, request.profile?.allowedTools].filter((list) => list !== undefined),
        nested,
      });
      const roots = { root: run.workspace.root, extraWritable: run.workspace.extraWritable };
      const lineage: Lineage = {
        ...this.#lineage,
        sessionId: run.log.id,
        depth: run.depth,
        workspace: run.workspace,
        recordSpend: (spend) => run.log.append(spendRecord(spend, host.now())),
      };
      const child = new SubagentRunner(host, this.#pool, lineage);
      // Nobody answers a child's questions, plans or one-off consents (a global history search).
      const { memory: _m, questions: _q, plans: _p, jobs: _j, subagents: _s, consent: _c, ...base } =
        host.toolContext;
      const toolContext: ToolContext = {
        ...base,
        state: newSessionToolState(),
        ...(base.writes ? { writes: this.#pool.serialWrites(base.writes) } : {}),
        signal: run.signal,
        workspace: run.workspace,
        sandbox: sandbox.sandbox,
        ...(nested ? { subagents: child } : {}),
        subagentResults: new ChildResults(this.#pool),
      };
      const done = await runChild(host, run.log, {
        registry,
        toolContext,
        gate: childGate(host.gate, {
          readOnly: request.readOnly,
          enforced: sandbox.enforced,
          roots,
          label: childLabel(request),
        }),
        effort: run.effort,
        maxSteps: request.maxSteps ?? host.maxSteps,
        signal: run.signal,
        model: run.model,
        onEvent: (event) => this.#forward(event, run.log.id, run.depth),
      });
      const ok = done.subtype === "success";
      await closeChildLog(run.log, { subtype: done.subtype, result: done.result }, host.now());
      return { ok, text: done.result, ref: `subagent:${run.log.id}`, sessionId: run.log.id };
    } finally {
      await sandbox.remove().catch(() => {});
    }
  }

  #eventBase(sessionId: string, depth: number, description: string, writer: boolean) {
    return {
      type: "subagent" as const,
      sessionId,
      parentId: this.#lineage.sessionId,
      depth,
      description,
      writer,
    };
  }

  #forward(event: ReasonixEvent, sessionId: string, depth: number): void {
    if (event.type !== "tool_call") return;
    const progress: SubagentEvent = {
      type: "subagent",
      phase: "tool",
      sessionId,
      parentId: this.#lineage.sessionId,
      depth,
      description: "",
      writer: !event.readOnly,
      tool: event.name,
    };
    this.#lineage.signalEvent(progress);
  }
}

/** Model and effort, winner first: config by profile, call argument, profile frontmatter, config, executor. */
export function choose(host: SubagentHost, request: SubagentRequest): { model: string; effort: Effort } {
  const settings = host.settings;
  const profile = request.profile?.name;
  const model = (profile ? settings.models?.[profile] : undefined) ?? request.model ??
    request.profile?.model ??
    settings.model ?? host.model;
  const effortText = (profile ? settings.efforts?.[profile] : undefined) ?? request.effort ??
    request.profile?.effort ?? settings.effort;
  const effort = effortText === undefined ? host.effort : safeEffort(effortText, host.effort);
  return { model, effort };
}

function safeEffort(text: string, fallback: Effort): Effort {
  try {
    return normalizeEffort(text);
  } catch {
    return fallback;
  }
}

function contextLines(ws: Workspace, claim: WriteClaim | null): string[] {
  const may = claim === null
    ? "You may only read: you cannot change files."
    : `You may change only: ${describeClaim(ws, claim)}; a write anywhere else is refused.`;
  return [`Workspace: ${ws.root}`, may];
}

/** The sandbox binds existing paths only; a claimed file not there yet is still covered by the file tools. */
function existingPaths(claim: WriteClaim | null): string[] {
  if (claim === null) return [];
  return claim.paths.filter((path) => {
    try {
      Deno.statSync(path);
      return true;
    } catch {
      return false;
    }
  });
}

/** How an approval card names the child: its description, else the start of its prompt. */
function childLabel(request: { description?: string; prompt: string }): string {
  const text = (request.description?.trim() || request.prompt.trim()).replace(/\s+/g, " ");
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}
