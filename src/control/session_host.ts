/**
 * @module
 * Owns the interactive face's current Controller and replaces it on `/new`, `/resume` and `/model`.
 * It offers the Controller's own surface by delegation, so listeners, commands and the face keep one
 * object across switches; each new Controller announces itself with `session_started`.
 */
import { loadConfig } from "../config/load.ts";
import type { ConfigFlags } from "../config/load.ts";
import { type Paths, processEnv, resolvePaths } from "../config/paths.ts";
import type { PermissionMode } from "../config/types.ts";
import { ReasonixError } from "../lib/errors.ts";
import { t } from "../lib/i18n/mod.ts";
import type { ChatMessage, Effort } from "../provider/provider.ts";
import { listWorkspaceSessions, type SessionListing } from "../session/listing.ts";
import type { TodoItem } from "../tool/session_state.ts";
import type { ApprovalChoice, ApprovalRequest, EventListener } from "./events.ts";
import { bootController, type BootOptions } from "./boot.ts";
import type { Controller } from "./controller.ts";
import type { ReasoningLanguage } from "./reasoning_language.ts";
import type { QuestionPort, StatusPort, UiSettings } from "./ports.ts";
import type { PendingQuestion, QuestionReply } from "./questions.ts";
import type { TurnOutcome, TurnTotals } from "./turn_outcome.ts";
import type { WorkspaceOps } from "./workspace_ops.ts";
import type { RewindOutcome, RewindRequest, RewindState } from "./rewind.ts";
import type { BranchPort } from "./branches.ts";

export interface ModelChoice {
  /** `provider/model`, accepted by `/model` and `--model`. */
  ref: string;
  provider: string;
  model: string;
  current: boolean;
}

/** What the session commands (`/new`, `/resume`, `/model`…) need beyond one Controller. */
export interface SessionControl {
  newSession(): Promise<void>;
  /** Switches to the session stored in `file`. */
  resume(file: string): Promise<void>;
  /** Re-boots the same session with another model (its provider cache starts cold). */
  switchModel(ref: string): Promise<void>;
  /** This workspace's sessions, newest activity first, with titles, turn counts and cost. */
  recentSessions(): Promise<SessionListing[]>;
  models(): Promise<ModelChoice[]>;
}

export class SessionHost implements SessionControl, QuestionPort, StatusPort {
  #boot: BootOptions;
  #current: Controller;
  #listeners = new Set<EventListener>();
  #detach: () => void;
  #busy = false;
  #effort: Effort | undefined;
  #reasoningLanguage: ReasoningLanguage | undefined;

  private constructor(boot: BootOptions, controller: Controller) {
    this.#boot = boot;
    this.#current = controller;
    this.#detach = this.#attach(controller);
  }

  static async start(boot: BootOptions): Promise<SessionHost> {
    const { resume: _resume, ...rest } = boot;
    return new SessionHost(rest, await bootController(boot));
  }

  get sessions(): SessionControl {
    return this;
  }
  get sessionId(): string {
    return this.#current.sessionId;
  }
  get sessionFile(): string {
    return this.#current.sessionFile;
  }
  get model(): string {
    return this.#current.model;
  }
  get providerName(): string {
    return this.#current.providerName;
  }
  get workspaceRoot(): string {
    return this.#current.workspaceRoot;
  }
  get workspaceOps(): WorkspaceOps | undefined {
    return this.#current.workspaceOps;
  }
  get effort(): Effort {
    return this.#current.effort;
  }
  get contextWindow(): number | null {
    return this.#current.contextWindow;
  }
  runningJobs(): number {
    return this.#current.runningJobs();
  }
  listWorkspaceFiles(): Promise<string[]> {
    return this.#current.listWorkspaceFiles();
  }
  get uiSettings(): UiSettings {
    return this.#current.uiSettings;
  }
  get permissionMode(): PermissionMode {
    return this.#current.permissionMode;
  }

  /** Like `Controller.subscribe`: with options, the current session's snapshot comes first. */
  subscribe(listener: EventListener, options?: { fromSeq?: number }): () => void {
    if (options) { for (const event of this.#current.snapshot(options.fromSeq)) listener(event); }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    this.#current.start();
  }

  history(): readonly ChatMessage[] {
    return this.#current.history();
  }
  totals(): TurnTotals {
    return this.#current.totals();
  }
  todos(): TodoItem[] {
    return this.#current.todos();
  }
  answerApproval(id: string, choice: ApprovalChoice): Promise<boolean> {
    return this.#current.answerApproval(id, choice);
  }
  pendingApprovals(): ApprovalRequest[] {
    return this.#current.pendingApprovals();
  }
  answerQuestion(id: string, reply: QuestionReply): boolean {
    return this.#current.answerQuestion(id, reply);
  }
  pendingQuestions(): PendingQuestion[] {
    return this.#current.pendingQuestions();
  }
  setPermissionMode(mode: PermissionMode): void {
    this.#current.setPermissionMode(mode);
  }
  setEffort(effort: Effort): void {
    this.#effort = effort;
    this.#current.setEffort(effort);
  }
  setReasoningLanguage(language: ReasoningLanguage): void {
    this.#reasoningLanguage = language;
    this.#current.setReasoningLanguage(language);
  }
  rename(title: string): Promise<void> {
    return this.#current.rename(title);
  }
  interrupt(): void {
    this.#current.interrupt();
  }

  runTurn(text: string): Promise<TurnOutcome> {
    return this.#exclusive(() => this.#current.runTurn(text));
  }
  compact(): Promise<boolean> {
    return this.#exclusive(() => this.#current.compact());
  }
  rewindState(): Promise<RewindState> {
    return this.#current.rewindState();
  }
  rewind(request: RewindRequest): Promise<RewindOutcome> {
    return this.#exclusive(() => this.#current.rewind(request));
  }
  get branches(): BranchPort {
    return this.#current.branches;
  }

  newSession(): Promise<void> {
    return this.#switchTo({ flags: this.#flags() });
  }

  resume(file: string): Promise<void> {
    const { model: _model, ...flags } = this.#flags();
    return this.#switchTo({ flags, resume: { kind: "query", query: file } });
  }

  /**
   * The same session goes on with another model (the face keeps its transcript and is sent only what
   * follows); a session that has no turn yet is not on disk, so it starts again with the new model.
   */
  switchModel(ref: string): Promise<void> {
    const written = this.#current.sessionWritten;
    return this.#switchTo({
      flags: { ...this.#flags(), model: ref },
      ...(written ? { resume: { kind: "query", query: this.sessionFile } } : {}),
    }, written ? this.#current.lastSeq : undefined);
  }

  recentSessions(): Promise<SessionListing[]> {
    return listWorkspaceSessions(this.#paths().sessionsDir, this.#current.workspaceRoot);
  }

  async models(): Promise<ModelChoice[]> {
    const config = await loadConfig({ workspace: this.#current.workspaceRoot, paths: this.#paths() });
    return config.providers.flatMap((provider) =>
      provider.models.map((model) => ({
        ref: `${provider.name}/${model}`,
        provider: provider.name,
        model,
        current: provider.name === this.providerName && model === this.model,
      }))
    );
  }

  async close(): Promise<void> {
    this.#detach();
    await this.#current.close();
  }

  #paths(): Paths {
    return this.#boot.paths ?? resolvePaths(this.#boot.env ?? processEnv());
  }

  /** The settings the person chose in this face, carried into every Controller it boots next. */
  #flags(): ConfigFlags {
    return {
      ...this.#boot.flags,
      model: `${this.providerName}/${this.model}`,
      permissionMode: this.permissionMode,
      ...(this.#effort ? { effort: this.#effort } : {}),
    };
  }

  /** Boots the next Controller before closing the old one, so a failed boot leaves the session as it was. */
  #switchTo(change: Pick<BootOptions, "flags" | "resume">, fromSeq?: number): Promise<void> {
    return this.#exclusive(async () => {
      const { resume: _resume, ...base } = this.#boot;
      const next = await bootController({ ...base, ...change });
      if (this.#reasoningLanguage) next.setReasoningLanguage(this.#reasoningLanguage);
      const old = this.#current;
      this.#detach();
      this.#current = next;
      this.#detach = this.#attach(next);
      // A switched-to session is shown as it stands (a resumed one with its conversation).
      const snapshot = next.snapshot();
      const shown = fromSeq === undefined ? snapshot : [
        next.announcement(fromSeq),
        ...next.snapshot(fromSeq),
        ...snapshot.filter((event) => event.type === "warning"),
      ];
      for (const event of shown) for (const listener of this.#listeners) listener(event);
      await old.close();
    });
  }

  async #exclusive<T>(work: () => Promise<T>): Promise<T> {
    if (this.#busy) throw new ReasonixError("session.busy", t("session.busy"));
    this.#busy = true;
    try {
      return await work();
    } finally {
      this.#busy = false;
    }
  }

  #attach(controller: Controller): () => void {
    return controller.subscribe((event) => {
      for (const listener of this.#listeners) listener(event);
    });
  }
}
