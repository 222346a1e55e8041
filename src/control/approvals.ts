/**
 * @module
 * The approval desk of a session: the permission mode, the remembered grants, and the calls waiting
 * for a person. A waiting call is announced as `approval_requested` and settles through `answer()`
 * (then `approval_resolved`); an interrupt or close settles every waiting call as a cancelled deny.
 */
import type { ApprovalChoice, ApprovalRequest, ReasonixEvent } from "../agent/events.ts";
import type { PermissionMode } from "../config/types.ts";
import { parseRule, type Rule } from "../permission/rules.ts";

/** What the gate hands over; the desk adds the id and the mode. */
export type ApprovalAsk = Omit<ApprovalRequest, "id" | "mode">;

/** `null`: nobody is there to answer; `cancelled`: the turn ended while the call waited. */
export type ApprovalAnswer = ApprovalChoice | "cancelled" | null;

export interface ApprovalsOptions {
  mode: PermissionMode;
  /** Rules remembered by earlier "always allow" answers in this workspace. */
  alwaysRules?: readonly string[];
  /** Stores an "always allow" rule; failures are reported as a warning, the call still runs. */
  persist?: (rule: string) => Promise<void>;
}

interface Waiting {
  request: ApprovalRequest;
  settle: (answer: ApprovalChoice | "cancelled") => void;
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

  /** Settles a waiting call; false when no call with this id is waiting. */
  async answer(id: string, choice: ApprovalChoice): Promise<boolean> {
    const waiting = this.#waiting.get(id);
    if (!waiting) return false;
    const rule = waiting.request.suggestedRule;
    if (rule !== null && (choice === "allow_session" || choice === "allow_always")) {
      this.#session.push(...safeRule(rule));
      if (choice === "allow_always") await this.#remember(rule);
    }
    this.#settle(id, choice);
    return true;
  }

  cancelAll(): void {
    for (const id of [...this.#waiting.keys()]) this.#settle(id, "cancelled");
  }

  async #remember(rule: string): Promise<void> {
    try {
      await this.#persist?.(rule);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.#emit({ type: "warning", message: `Cannot remember "${rule}" for later sessions: ${detail}` });
    }
  }

  #settle(id: string, answer: ApprovalChoice | "cancelled"): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    waiting.settle(answer);
    const choice = answer === "cancelled" ? "deny" : answer;
    this.#emit({
      type: "approval_resolved",
      id,
      choice,
      ...(answer === "cancelled" ? { cancelled: true } : {}),
    });
  }
}

function safeRule(text: string): Rule[] {
  try {
    return [parseRule(text)];
  } catch {
    return [];
  }
}
