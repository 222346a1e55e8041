/**
 * @module
 * The Controller's surface, split into ports so each face receives only what it needs.
 */
import type { EventListener } from "./events.ts";
import type { StopSignal } from "./explain.ts";
import type { ApprovalChoice, ApprovalRequest } from "./events.ts";
import type { PermissionMode, UiConfig, UiLanguageSetting } from "../config/types.ts";
import type { Effort } from "../provider/provider.ts";
import type { TurnOutcome, TurnTotals } from "./turn_outcome.ts";
import type { PendingQuestion, QuestionReply } from "./questions.ts";
import type { FaceHooks, SubmitResult } from "./submit.ts";
import type { CommandRegistry } from "./commands/registry.ts";

export interface TurnControl {
  runTurn(text: string): Promise<TurnOutcome>;
  /** Cancels the running turn: the HTTP request and any running tool (SIGINT: as Ctrl+C does). */
  interrupt(signal?: StopSignal): void;
}

/** One router for what a person types (slash command, `#note` or model turn), the same for every face. */
export interface SubmitPort {
  submit(input: string, face?: FaceHooks): Promise<SubmitResult>;
  /** The slash commands `submit` runs, for a face's completion. */
  readonly commands: CommandRegistry;
}

export interface EventSource {
  /** With options, the snapshot first: the whole session (no `fromSeq`) or what came after `fromSeq`. */
  subscribe(listener: EventListener, options?: { fromSeq?: number }): () => void;
}

export interface SessionInfo {
  readonly sessionId: string;
  readonly sessionFile: string;
  readonly model: string;
  readonly providerName: string;
  totals(): TurnTotals;
}

/** What an interactive face needs to show approval cards and answer them. */
export interface ApprovalPort {
  /** `reason` goes with a deny: the model reads it in the refusal. */
  answerApproval(id: string, choice: ApprovalChoice, reason?: string): Promise<boolean>;
  pendingApprovals(): ApprovalRequest[];
  readonly permissionMode: PermissionMode;
  setPermissionMode(mode: PermissionMode): void;
}

/** What an interactive face needs to put the `ask` tool's questions to the user. */
export interface QuestionPort {
  /** False when that ask is no longer waiting or the reply does not fit its questions. */
  answerQuestion(id: string, reply: QuestionReply): boolean;
  pendingQuestions(): PendingQuestion[];
}

/** The face settings the config resolved: top-level `language` and `[ui]`. */
export type UiSettings = UiConfig & { language: UiLanguageSetting };

/** What a status line reads between events. */
export interface StatusPort {
  readonly effort: Effort;
  /** The model's context window in tokens; null when unknown. */
  readonly contextWindow: number | null;
  /** Background jobs (`bash` with `background`) still running. */
  runningJobs(): number;
  readonly uiSettings: UiSettings;
}

export interface Closable {
  close(): Promise<void>;
}

/** What `reasonix run` needs: one or more turns, events, totals. */
export type RunPort = TurnControl & SubmitPort & EventSource & SessionInfo & Closable;
