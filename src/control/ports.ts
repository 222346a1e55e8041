/**
 * @module
 * The Controller's surface, split into ports so each face receives only what it needs.
 */
import type { EventListener } from "./events.ts";
import type { ApprovalChoice, ApprovalRequest } from "./events.ts";
import type { PermissionMode } from "../config/types.ts";
import type { TurnOutcome, TurnTotals } from "./turn_outcome.ts";

export interface TurnControl {
  runTurn(text: string): Promise<TurnOutcome>;
  /** Cancels the running turn: the HTTP request and any running tool. */
  interrupt(): void;
}

export interface EventSource {
  subscribe(listener: EventListener): () => void;
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
  answerApproval(id: string, choice: ApprovalChoice): Promise<boolean>;
  pendingApprovals(): ApprovalRequest[];
  readonly permissionMode: PermissionMode;
  setPermissionMode(mode: PermissionMode): void;
}

export interface Closable {
  close(): Promise<void>;
}

/** What `reasonix run` needs: one or more turns, events, totals. */
export type RunPort = TurnControl & EventSource & SessionInfo & Closable;
