/**
 * @module
 * The transport-agnostic Controller: owns the session (history + durable store), runs turns through
 * the agent loop, prices every model call, and broadcasts typed events to whichever face listens.
 */
import type { TodoItem } from "../tool/session_state.ts";
import type { ChatMessage, ChatResult, Effort } from "../provider/provider.ts";
import { recordUsage } from "./usage_record.ts";
import { type FaceHooks, submitInput, type SubmitResult } from "./submit.ts";
import type { CommandRegistry } from "./commands/registry.ts";
import { defaultCommands } from "./commands/builtin.ts";
import { runTurnLoop } from "../agent/loop.ts";
import type { ApprovalChoice, ApprovalRequest, EventListener, ReasonixEvent } from "./events.ts";
import type { ApprovalPort, QuestionPort, RunPort, StatusPort, UiSettings } from "./ports.ts";
import type { PendingQuestion, QuestionReply } from "./questions.ts";
import type { WorkspaceOps } from "./workspace_ops.ts";
import type { PermissionMode } from "../config/types.ts";
import { addChildSpend, countEvent, emptyTotals, type TurnOutcome, type TurnTotals } from "./turn_outcome.ts";
import { failTurn, StopRequest, type StopSignal } from "./turn_failure.ts";
import type { McpManager } from "../mcp/manager.ts";
import { TITLE_EVENT } from "../session/details.ts";
import { type Compactor, controllerCompactor } from "./compaction.ts";
import { FileNotices } from "./file_notices.ts";
import { withMcpPrompts } from "./mcp_prompts.ts";
import { withSkillCommands } from "./skill_commands.ts";
import type { TurnOptions } from "./turn_attachments.ts";
import { appendUserTurn, nowIso, recordToolsJson } from "./user_turn.ts";
import { WorkspaceFiles } from "./workspace_files.ts";
import { type ReasoningLanguage, reasoningLanguageNote } from "./reasoning_language.ts";
import { TurnCheckpoints } from "./turn_checkpoints.ts";
import { Steering, undeliveredWarning } from "./steering.ts";
import * as rewinding from "./rewind.ts";
import type { SessionEntry, ToolOutcomeMeta } from "../session/store.ts";
import { type BranchPort, branchPort, type BranchTarget } from "./branches.ts";
import { type ControllerParts, rewindTargetOf, uiSettingsOf } from "./controller_parts.ts";
import {
  closeParts,
  type Reboot,
  type SessionControl,
  SessionSwitch,
  switchedEvents,
} from "./session_switch.ts";
import { ReasonixError } from "../lib/errors.ts";
import { t } from "../lib/i18n/mod.ts";
import type { PlanPort } from "./plan_desk.ts";
import { wireParts } from "./parts_wiring.ts";
import { loopOptionsOf } from "./loop_options.ts";
import { type GoalDesk, goalDeskFor } from "./goal/host.ts";
import { Delivery, type DeliveryPort } from "./delivery/policy.ts";
import { sessionFigures } from "./session_figures.ts";
import { announcementEvent, deskEntry, snapshotOf, type SubscribeOptions } from "./session_events.ts";

export type { ControllerParts, SubscribeOptions };
type SessionStarted = Extract<ReasonixEvent, { type: "session_started" }>;

export class Controller implements RunPort, ApprovalPort, QuestionPort, StatusPort {
  #parts!: ControllerParts;
  #listeners = new Set<EventListener>();
  #abort: AbortController | null = null;
  #switching = false;
  #totals: TurnTotals = emptyTotals();
  #requests = 0;
  #recordedToolsJson: string | undefined;
  #compactor!: Compactor;
  #files!: FileNotices;
  #workspaceFiles: WorkspaceFiles | undefined;
  #reasoningLanguage: ReasoningLanguage = "auto";
  #checkpoints!: TurnCheckpoints;
  /** What the person chose in this face; a switched-to session keeps it. */
  #chosen: { effort?: Effort; reasoningLanguage?: ReasoningLanguage } = {};
  #sessions: SessionControl | undefined;
  #commands: CommandRegistry | undefined;
  #steering = new Steering();
  /** Goal mode (`/goal`, `run --goal`): the session's goal, its sidecar and the turns it runs; set per session. */
  goal!: GoalDesk;
  #delivery: Delivery;

  /** With `reboot`, the Controller can switch sessions (`sessions`), keeping its listeners. */
  constructor(parts: ControllerParts, options: { reboot?: Reboot } = {}) {
    this.#delivery = new Delivery(parts.delivery ?? "off", () => {
      const { state, workspace } = this.#parts.toolContext;
      return { state, workspace, verifyCommands: this.#parts.verifyCommands ?? [] };
    });
    this.#adopt(parts);
    if (!options.reboot) return;
    this.#sessions = new SessionSwitch(options.reboot, this, {
      chosenEffort: () => this.#chosen.effort,
      switchTo: (boot, fromSeq) => this.#switchTo(boot, fromSeq),
    });
  }

  /** Makes `parts` the current session: everything derived from the previous one starts again. */
  #adopt(parts: ControllerParts): void {
    this.#parts = parts;
    this.goal = goalDeskFor(this, parts, (event) => this.#emit(event));
    this.#totals = emptyTotals();
    this.#requests = 0;
    this.#workspaceFiles = undefined;
    this.#reasoningLanguage = "auto";
    this.#recordedToolsJson = parts.recordedToolsJson;
    this.#files = new FileNotices(parts.toolContext.workspace.root);
    this.#checkpoints = new TurnCheckpoints(parts.log, parts.checkpointRetentionDays);
    parts.toolContext.writes = this.#checkpoints; // subagents' writes are the turn's too
    wireParts(parts, {
      desk: (event) => this.#desk(event),
      emit: (event) => this.#emit(event),
      attended: () => this.#listeners.size > 0 && this.#parts === parts,
      runningJobs: () => this.runningJobs(),
      subagent: (event) => addChildSpend(this.#totals, event),
    });
    const language = this.#chosen.reasoningLanguage ?? parts.reasoningLanguage;
    if (language) this.#tellReasoningLanguage(language);
    if (this.#chosen.effort) parts.effort = this.#chosen.effort;
    this.#compactor = controllerCompactor(parts, {
      recordUsage: (result) => this.#recordUsage(result),
      emit: (event) => this.#observe(event),
    });
  }

  /** The slash commands every face completes and `/help` lists, with the MCP prompts; `submit` runs them. */
  get commands(): CommandRegistry {
    return this.#commands ??= withSkillCommands(
      withMcpPrompts(defaultCommands(), () => this.mcp),
      () => this.#parts,
    );
  }

  /** Routes what a person typed (see submit.ts): a slash command or `#note` runs here, anything else is a turn. */
  submit(input: string, face?: FaceHooks): Promise<SubmitResult> {
    const target = { host: this, commands: this.commands, emit: (event: ReasonixEvent) => this.#emit(event) };
    const busy = () => this.busy;
    const runTurn = (text: string, options?: TurnOptions) => this.runTurn(text, options);
    return submitInput({ ...target, busy, runTurn }, input, face);
  }

  /** `/new`, `/resume`, `/model`; absent when the face cannot switch sessions (`reasonix run`). */
  get sessions(): SessionControl | undefined {
    return this.#sessions;
  }

  /** Boots the next session before letting the current one go, so a failed boot changes nothing. */
  async #switchTo(boot: () => Promise<ControllerParts>, fromSeq?: number): Promise<void> {
    this.#refuseWhileBusy();
    this.#switching = true;
    try {
      const next = await boot();
      const old = this.#parts;
      next.plans?.inherit(old.plans?.previousMode);
      this.#adopt(next);
      for (const event of switchedEvents(this, fromSeq)) this.#emit(event);
      await closeParts(old);
    } finally {
      this.#switching = false;
    }
  }

  get busy(): boolean {
    return this.#abort !== null || this.#switching || this.goal.running || !!this.#parts.stops?.size;
  }

  #refuseWhileBusy(): void {
    if (this.#abort || this.#switching) throw new ReasonixError("session.busy", t("session.busy"));
  }

  get sessionId(): string {
    return this.#parts.log.id;
  }
  get sessionFile(): string {
    return this.#parts.log.file;
  }
  /** False until the first user turn: a new session is written only then. */
  get sessionWritten(): boolean {
    return this.#parts.log.store.written;
  }
  get model(): string {
    return this.#parts.model;
  }
  get providerName(): string {
    return this.#parts.providerConfig.name;
  }
  get workspaceOps(): WorkspaceOps | undefined {
    return this.#parts.workspaceOps;
  }
  /** The session's MCP servers (absent where the Controller was assembled without them). */
  get mcp(): McpManager | undefined {
    return this.#parts.mcp;
  }
  get workspaceRoot(): string {
    return this.#parts.toolContext.workspace.root;
  }
  get effort(): Effort {
    return this.#parts.effort;
  }

  /** Effort is a request parameter, not part of the prefix: the next request carries it, the cache stays warm. */
  setEffort(effort: Effort): void {
    this.#chosen.effort = effort;
    this.#parts.effort = effort;
  }

  /** Names the session (`/rename`); listings read the last title recorded. */
  async rename(title: string): Promise<void> {
    await this.#parts.log.append({
      type: "event",
      name: TITLE_EVENT,
      data: { title },
      at: nowIso(this.#parts),
    });
  }

  get contextWindow(): number | null { // null when unknown or 0 (no compaction, no fit check)
    return this.#parts.contextWindow || null;
  }
  runningJobs(): number {
    return this.#parts.toolContext.jobs?.list().filter((job) => job.status === "running").length ?? 0;
  }
  get uiSettings(): UiSettings {
    return uiSettingsOf(this.#parts);
  }

  /** Messages as they will be replayed; never mutate. */
  history(): readonly ChatMessage[] {
    return this.#parts.log.messages();
  }

  totals(): TurnTotals {
    return structuredClone(this.#totals);
  }

  /** The session's todo list as the model last wrote it. */
  todos(): TodoItem[] {
    return structuredClone(this.#parts.toolContext.state?.todos ?? []);
  }

  /** The seq of the newest record in the session log. */
  get lastSeq(): number {
    return this.#parts.log.lastSeq;
  }

  /**
   * Live events from now on; with options, first the snapshot (see `snapshot`), delivered before any
   * live event so nothing is missed and nothing comes twice.
   */
  subscribe(listener: EventListener, options?: SubscribeOptions): () => void {
    if (options) { for (const event of this.snapshot(options.fromSeq)) listener(event); }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Without `fromSeq`: the session as it stands, rebuilt from its log (the current line's transcript,
   * todo list, figures across processes), then a resume notice, warnings, jobs and what waits for an
   * answer. With `fromSeq`: only the events of the records after it, unless the conversation moved since.
   */
  snapshot(fromSeq?: number): ReasonixEvent[] {
    return snapshotOf(this, this.#parts, fromSeq === undefined ? {} : { fromSeq });
  }

  /** Announces the session to current subscribers (frontends call it once they listen). */
  start(): void {
    this.#emit(this.announcement());
    for (const message of this.#parts.warnings ?? []) this.#emit({ type: "warning", message });
    void this.goal.announce();
  }

  /** Answers an `approval_requested` event; false when that approval is no longer waiting. */
  answerApproval(id: string, choice: ApprovalChoice, reason?: string): Promise<boolean> {
    return this.#parts.approvals?.answer(id, choice, reason) ?? Promise.resolve(false);
  }

  /** Approvals still waiting, for a face that attaches while one is open. */
  pendingApprovals(): ApprovalRequest[] {
    return this.#parts.approvals?.pending() ?? [];
  }

  /** Answers a `question_asked` event (the `ask` tool). */
  answerQuestion(id: string, reply: QuestionReply): boolean {
    return this.#parts.questions?.answer(id, reply) ?? false;
  }

  pendingQuestions(): PendingQuestion[] {
    return this.#parts.questions?.pending() ?? [];
  }

  get permissionMode(): PermissionMode {
    return this.#parts.approvals?.mode ?? "ask";
  }

  /** Switches ask/auto/yolo/plan for the next gated call (TUI Shift+Tab); plan mode's notes reach the model. */
  setPermissionMode(mode: PermissionMode): void {
    if (this.#parts.plans) this.#parts.plans.setMode(mode);
    else if (this.#parts.approvals) this.#parts.approvals.mode = mode;
  }

  /** Verified delivery (`/delivery`); goal mode switches it on with `delivery.setMode("verify")`. */
  get delivery(): DeliveryPort {
    return this.#delivery;
  }

  /** The plan waiting for review and its answer (`plan_proposed` cards); absent without a plan desk. */
  get plans(): PlanPort | undefined {
    return this.#parts.plans;
  }

  /** Tells the model, on the tail of the next user message, which language to reason in. */
  setReasoningLanguage(language: ReasoningLanguage): void {
    this.#chosen.reasoningLanguage = language;
    this.#tellReasoningLanguage(language);
  }

  #tellReasoningLanguage(language: ReasoningLanguage): void {
    if (language === this.#reasoningLanguage) return;
    this.#reasoningLanguage = language;
    this.#parts.turnNotes = [...(this.#parts.turnNotes ?? []), reasoningLanguageNote(language)];
  }

  /** Workspace paths for `@path` completion (directories end in "/"); cached briefly. */
  listWorkspaceFiles(): Promise<string[]> {
    this.#workspaceFiles ??= new WorkspaceFiles({ context: this.#parts.toolContext });
    return this.#workspaceFiles.list();
  }

  interrupt(signal: StopSignal = "SIGINT"): void {
    this.#parts.approvals?.cancelAll();
    this.#parts.questions?.cancelAll();
    this.#parts.plans?.cancelAll();
    this.#parts.stops?.abort(new StopRequest(signal));
    this.#abort?.abort(new StopRequest(signal));
  }

  /** Mid-turn steering: `text` reaches the running turn's next request; false when no turn runs. */
  steer(text: string): boolean {
    return this.#steering.add(text);
  }

  async runTurn(text: string, options: TurnOptions = {}): Promise<TurnOutcome> {
    this.#refuseWhileBusy();
    const abort = new AbortController();
    this.#abort = abort;
    this.#steering.open();
    this.#totals.turns++;
    const turn = sessionFigures(this.#parts.log.since(0)).turns + 1;
    try {
      await this.#checkpoints.open(text, (this.#parts.now ?? (() => new Date()))());
      const [entry] = await this.#entry({ kind: "turn", turn, text });
      this.#emit({ type: "turn_started", turn, text, seq: entry!.seq });
      await this.#recordTools();
      await this.#compactor.maintain(abort.signal, { midTurn: false });
      await appendUserTurn(this.#parts, this.#files, text, options);
      const done = await runTurnLoop(this.#delivery.wrap(this.#loopOptions(abort.signal), text));
      return await this.#finish(this.#delivery.outcome(done));
    } catch (error) {
      const at = nowIso(this.#parts);
      return await this.#finish(
        await failTurn(this.#parts.log, error, { abort: abort.signal, at }),
      );
    } finally {
      this.#abort = null;
      const left = this.#steering.close();
      if (left.length > 0) this.#emit({ type: "warning", message: undeliveredWarning(left) });
    }
  }

  /** Summarises the conversation now (`/compact [focus]`); false when there was nothing to compact or it failed. */
  async compact(focus?: string): Promise<boolean> {
    this.#refuseWhileBusy();
    const abort = new AbortController();
    this.#abort = abort;
    try {
      await this.#recordTools();
      return await this.#compactor.compact("manual", abort.signal, focus ? { focus } : {});
    } finally {
      this.#abort = null;
    }
  }

  /** `/context`: the window's parts and the next snip/compaction points. */
  contextReport(): ReturnType<Compactor["report"]> {
    return this.#compactor.report();
  }

  /** The user turns of this conversation and whether a restore can be undone, for a rewind picker. */
  rewindState(): Promise<rewinding.RewindState> {
    return rewinding.rewindState(this.#rewindTarget());
  }

  /** Goes back to before a user turn (code, conversation or both), or undoes the last restore. */
  async rewind(request: rewinding.RewindRequest): Promise<rewinding.RewindOutcome> {
    this.#refuseWhileBusy();
    const outcome = await rewinding.rewind(this.#rewindTarget(), request);
    if (outcome.status === "done" && outcome.history) this.#conversationMoved(outcome.note);
    return outcome;
  }

  /** `/branch`, `/switch`, `/tree`: only the conversation moves between branches, never the files. */
  get branches(): BranchPort {
    return branchPort(this.#rewindTarget(), {
      guard: () => this.#refuseWhileBusy(),
      moved: (n) => this.#conversationMoved(n),
    });
  }

  /** What the model saw in the turns left behind is gone from its conversation; faces redraw the line. */
  #conversationMoved(note: string | null): void {
    this.#files = new FileNotices(this.workspaceRoot);
    if (note) this.#parts.turnNotes = [...this.#parts.turnNotes ?? [], note];
    for (const event of snapshotOf(this, this.#parts, { redraw: true })) this.#emit(event);
  }

  #rewindTarget(): rewinding.RewindTarget & BranchTarget {
    return rewindTargetOf(this.#parts);
  }

  async close(): Promise<void> {
    this.interrupt();
    await closeParts(this.#parts);
  }

  #loopOptions(signal: AbortSignal) {
    return loopOptionsOf(this.#parts, signal, {
      append: (message, tool) => this.#append(message, tool),
      onModelCall: (result) => {
        this.#compactor.noteRequest(result.usage.promptTokens, this.#parts.log.messages().length - 1);
        return this.#recordUsage(result);
      },
      emit: (event) => this.#observe(event),
      beforeNextCall: () => this.#compactor.maintain(signal, { midTurn: true }),
      steer: this.#steering,
    });
  }

  async #recordTools(): Promise<void> {
    this.#recordedToolsJson = await recordToolsJson(this.#parts, this.#recordedToolsJson);
  }

  async #append(message: ChatMessage, tool?: ToolOutcomeMeta): Promise<void> {
    await this.#parts.log.append({ type: "message", message, ...(tool ? { tool } : {}) });
  }

  #entry(entry: SessionEntry) {
    return this.#parts.log.append({ type: "entry", entry, at: nowIso(this.#parts) });
  }

  /** `session_started`; with `figuresUpTo`, the session's figures up to that seq (a face adds the rest). */
  announcement(figuresUpTo?: number): SessionStarted {
    const { log, resumed, model, providerConfig } = this.#parts;
    return announcementEvent(log, { resumed, model, provider: providerConfig.name }, figuresUpTo);
  }

  /** Approvals and questions are recorded as they are asked and answered, then reach the faces. */
  #desk(event: ReasonixEvent): void {
    const entry = deskEntry(event);
    if (entry) void this.#entry(entry).catch(() => {});
    this.#emit(event);
  }

  /** Every completed request passes here, so an interrupted turn's requests count too. */
  async #recordUsage(result: ChatResult): Promise<void> {
    this.#totals.modelCalls++;
    const counted = { totals: this.#totals, request: ++this.#requests };
    this.#emit(await recordUsage(this.#parts, result, counted));
  }

  async #finish(outcome: TurnOutcome): Promise<TurnOutcome> {
    const { subtype, result } = outcome;
    const seq = await this.#entry({ kind: "turn_end", subtype, result }).then(
      ([r]) => r!.seq,
      () => undefined,
    );
    this.#emit({
      ...(seq === undefined ? {} : { seq }),
      type: "turn_done",
      subtype: outcome.subtype,
      result: outcome.result,
      ...(outcome.error ? { error: outcome.error } : {}),
    });
    return outcome;
  }

  #observe(event: ReasonixEvent): void {
    countEvent(this.#totals, event);
    // The record's own seq: a background child may have appended its spend since.
    if (event.type === "message" || event.type === "steered") {
      event = { ...event, seq: this.#parts.log.lastSeqOf("message") };
    }
    if (event.type === "compaction") event = { ...event, seq: this.#parts.log.lastSeqOf("compaction") };
    if (event.type === "warning") {
      void this.#entry({ kind: "notice", level: "warning", text: event.message }).catch(() => {});
    }
    if (event.type === "tool_call") this.#files.onCall(event.callId, event.name, event.arguments);
    if (event.type === "tool_result") this.#files.onResult(event.callId, event.ok);
    this.#emit(event);
  }

  #emit(event: ReasonixEvent): void {
    this.goal.observe(event);
    for (const listener of this.#listeners) listener(event);
  }
}
