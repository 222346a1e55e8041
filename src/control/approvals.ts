/**
 * @module
 * The approval desk of a session: the permission mode, the remembered grants, and the calls waiting
 * for a person. A waiting call is announced as `approval_requested` and settles through `answer()`
 * (then `approval_resolved`); an interrupt or close settles every waiting call as a cancelled deny.
 */
import type { ApprovalChoice, ApprovalRequest, ReasonixEvent } from "../agent/events.ts";
import type { PermissionMode } from "../config/types.ts";
import { parseRule, type Rule } from "../permission/rules.ts";
import { t } from "../lib/i18n/mod.ts";

/** What the gate hands over; the desk adds the id and the mode. */
export type ApprovalAsk = Omit<ApprovalRequest, "id" | "mode">;

/** A person's answer; `reason` is what they typed when denying (trimmed, never empty). */
export interface ApprovalReply {
  choice: ApprovalChoice;
  reason?: string;
}

/** `null`: nobody is there to answer; `cancelled`: the turn ended while the call waited. */
export type ApprovalAnswer = ApprovalReply | "cancelled" | null;

/** A deny reason longer than this is cut: it is the person's note, not a document. */
const MAX_REASON_CHARS = 2000;

export interface ApprovalsOptions {
  mode: PermissionMode;
  /** Rules remembered by earlier "always allow" answers in this workspace. */
  alwaysRules?: readonly string[];
  /**
   * Stores an "always allow" rule and returns where (a file path, for the notice); failures are reported
   * as a warning, the call still runs.
   */
  persist?: (rule: string) => Promise<string>;
}

interface Waiting {
  request: ApprovalRequest;
  settle: (answer: ApprovalReply | "cancelled") => void;
}

export class Approvals {
  mode: PermissionMode;
  #session: Rule[] = [];
  #always: Rule[];
  #persist: ApprovalsOptions["persist"];
  #waiting = new Map<string, Waiting>();
  #emit: (event: ReasonixEvent) => void = () => {};
  #canAnswer: () => boolean = () => false;
  #next = 0;

  constructor(options: ApprovalsOptions) {
    this.mode = options.mode;
    this.#always = (options.alwaysRules ?? []).flatMap(safeRule);
    this.#persist = options.persist;
  }

  /** Connects the desk to the Controller's event stream and its "is anyone listening" test. */
  attach(emit: (event: ReasonixEvent) => void, canAnswer: () => boolean): void {
    this.#emit = emit;
    this.#canAnswer = canAnswer;
  }

  /** Grants remembered this session and for this workspace; they join the allow rules. */
  grants(): Rule[] {
    return [...this.#session, ...this.#always];
  }

  /** Replaces the workspace's remembered grants (`/reload`); grants of this session stay. */
  setAlwaysRules(rules: readonly string[]): void {
    this.#always = rules.flatMap(safeRule);
  }

  pending(): ApprovalRequest[] {
    return [...this.#waiting.values()].map((waiting) => waiting.request);
  }

  request(ask: ApprovalAsk, signal?: AbortSignal): Promise<ApprovalAnswer> {
    if (!this.#canAnswer()) return Promise.resolve(null);
    if (signal?.aborted) return Promise.resolve("cancelled");
    const request: ApprovalRequest = { ...ask, id: `approval-${++this.#next}`, mode: this.mode };
    return new Promise((resolve) => {
      const onAbort = () => this.#settle(request.id, "cancelled");
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.set(request.id, {
        request,
        settle: (answer) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(answer);
        },
      });
      this.#emit({ type: "approval_requested", request });
    });
  }

  /** Settles a waiting call; false when no call with this id is waiting. `reason` counts only with deny. */
  async answer(id: string, choice: ApprovalChoice, reason?: string): Promise<boolean> {
    const waiting = this.#waiting.get(id);
    if (!waiting) return false;
    const rule = waiting.request.suggestedRule;
    if (rule !== null && (choice === "allow_session" || choice === "allow_always")) {
      this.#session.push(...safeRule(rule));
      if (choice === "allow_always") await this.#remember(rule);
    }
    const note = choice === "deny" ? denyReason(reason) : undefined;
    this.#settle(id, note === undefined ? { choice } : { choice, reason: note });
    return true;
  }

  cancelAll(): void {
    for (const id of [...this.#waiting.keys()]) this.#settle(id, "cancelled");
  }

  async #remember(rule: string): Promise<void> {
    if (!this.#persist) return;
    try {
      const file = await this.#persist(rule);
      this.#emit({ type: "notice", message: t("approval.saved", { rule, file }) });
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.#emit({ type: "warning", message: `Cannot remember "${rule}" for later sessions: ${detail}` });
    }
  }

  #settle(id: string, answer: ApprovalReply | "cancelled"): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    waiting.settle(answer);
    this.#emit({
      type: "approval_resolved",
      id,
      ...(answer === "cancelled" ? { choice: "deny", cancelled: true } : answer),
    });
  }
}

function denyReason(reason: string | undefined): string | undefined {
  const trimmed = reason?.trim();
  return trimmed ? trimmed.slice(0, MAX_REASON_CHARS) : undefined;
}

function safeRule(text: string): Rule[] {
  try {
    return [parseRule(text)];
  } catch {
    return [];
  }
}
