/**
 * @module
 * One ACP session over one Controller: its events become `session/update`s (in order, each sent before
 * the prompt's response), its approvals become `session/request_permission`, and a prompt goes through
 * the Controller's `submit`, so slash commands work as in every face.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type {
  ApprovalChoice,
  ApprovalRequest,
  Controller,
  ProposedPlan,
  ReasonixEvent,
} from "../../control/mod.ts";
import { interruptAndSettle } from "../../control/mod.ts";
import { reviewPlan } from "./plan_review.ts";
import { updatesOf } from "./updates.ts";
import { UsageGauge } from "./usage.ts";
import { approvalToolCall } from "./tool_calls.ts";
import { promptText } from "./prompt.ts";
import { requestError } from "./errors.ts";
import { errorMessage } from "../../lib/errors.ts";
import { escapeControls } from "../../lib/terminal_text.ts";

/** What the session needs of the connection: sending to the editor. */
export interface EditorLink {
  notify(update: acp.SessionUpdate, sessionId: string): Promise<void>;
  requestPermission(
    params: acp.RequestPermissionRequest,
    signal: AbortSignal,
  ): Promise<acp.RequestPermissionResponse>;
}

export class AcpSession {
  readonly id: string;
  readonly controller: Controller;
  #link: EditorLink;
  #queue: Promise<void> = Promise.resolve();
  #replaying = false;
  #cancelled = false;
  #asking = new Map<string, AbortController>();
  #unsubscribe: () => void = () => {};
  #usage = new UsageGauge();
  /** Tool calls running in the editor's terminal: their cards keep it. */
  #terminals = new Map<string, string>();

  constructor(controller: Controller, link: EditorLink) {
    this.id = controller.sessionId;
    this.controller = controller;
    this.#link = link;
  }

  get root(): string {
    return this.controller.workspaceRoot;
  }

  /** Starts listening; with `replay`, the stored session is sent first as updates. */
  attach(replay: boolean): Promise<void> {
    this.#replaying = replay;
    this.#unsubscribe = this.controller.subscribe((event) => this.#onEvent(event), replay ? {} : undefined);
    this.#replaying = false;
    this.#sendUsage();
    return this.flush();
  }

  /** Resolves once every update queued so far was handed to the connection. */
  flush(): Promise<void> {
    return this.#queue;
  }

  send(update: acp.SessionUpdate): Promise<void> {
    this.#queue = this.#queue.then(() => this.#link.notify(update, this.id)).catch((error) => {
      console.error(`reasonix acp: cannot send an update: ${escapeControls(errorMessage(error))}`);
    });
    return this.#queue;
  }

  async prompt(blocks: readonly acp.ContentBlock[]): Promise<acp.PromptResponse> {
    this.#cancelled = false;
    const input = promptText(blocks, this.root);
    let result;
    try {
      result = await this.controller.submit(input);
    } catch (error) {
      throw requestError(error);
    } finally {
      await this.flush();
    }
    if (this.#cancelled) return { stopReason: "cancelled" };
    if (result.kind !== "turn") return { stopReason: "end_turn" };
    const outcome = result.outcome;
    if (outcome.subtype === "error_max_steps") return { stopReason: "max_turn_requests" };
    if (outcome.error?.code === "turn.interrupted") return { stopReason: "cancelled" };
    if (outcome.error) throw requestError(outcome.error);
    return { stopReason: "end_turn" };
  }

  cancel(): void {
    this.#cancelled = true;
    this.controller.interrupt("SIGINT");
  }

  /** Ends a running turn as an interrupt does, then lets the session go. */
  async close(): Promise<void> {
    this.#cancelled = true;
    // The turn records its end (and its interrupted tool calls' results) before the session closes.
    await interruptAndSettle(this.controller, "SIGTERM");
    this.#unsubscribe();
    for (const asking of this.#asking.values()) asking.abort();
    await this.flush();
    await this.controller.close();
  }

  /** Embeds a terminal in a running tool call's card; the call's final update keeps it. */
  showTerminal(callId: string, terminalId: string): Promise<void> {
    this.#terminals.set(callId, terminalId);
    return this.send({ sessionUpdate: "tool_call_update", toolCallId: callId, ...withTerminal(terminalId) });
  }

  #onEvent(event: ReasonixEvent): void {
    for (const update of updatesOf(event, { root: this.root, replay: this.#replaying })) {
      this.send(this.#keepTerminal(update));
    }
    const priced = (event.type === "usage" || event.type === "subagent") && this.#usage.add(event);
    if (this.#replaying) return;
    if (priced) this.#sendUsage();
    if (event.type === "approval_requested") void this.#ask(event.request);
    if (event.type === "approval_resolved") this.#asking.get(event.id)?.abort();
    if (event.type === "plan_proposed") this.#review(event.plan);
    if (event.type === "plan_resolved") this.#asking.get(`plan-${event.plan.revision}`)?.abort();
  }

  #keepTerminal(update: acp.SessionUpdate): acp.SessionUpdate {
    if (update.sessionUpdate !== "tool_call_update" || update.status === "in_progress") return update;
    const terminalId = this.#terminals.get(update.toolCallId);
    if (terminalId === undefined) return update;
    this.#terminals.delete(update.toolCallId);
    return { ...update, content: [...withTerminal(terminalId).content, ...update.content ?? []] };
  }

  #review(plan: ProposedPlan): void {
    const abort = new AbortController();
    const key = `plan-${plan.revision}`;
    this.#asking.set(key, abort);
    void this.flush().then(() => reviewPlan(this.#link, this, plan, abort.signal))
      .finally(() => this.#asking.delete(key));
  }

  #sendUsage(): void {
    const update = this.#usage.update(this.controller.contextWindow);
    if (update) this.send(update);
  }

  /** Asks the editor; any failure to get an answer is a deny, so a call never runs unapproved. */
  async #ask(request: ApprovalRequest): Promise<void> {
    const abort = new AbortController();
    this.#asking.set(request.id, abort);
    let choice: ApprovalChoice = "deny";
    try {
      await this.flush();
      const response = await this.#link.requestPermission({
        sessionId: this.id,
        toolCall: approvalToolCall(request, this.root),
        options: permissionOptions(request),
      }, abort.signal);
      if (response.outcome.outcome === "selected") choice = choiceOf(response.outcome.optionId, request);
    } catch (error) {
      if (!abort.signal.aborted) {
        console.error(
          `reasonix acp: permission request failed: ${error instanceof Error ? error.message : error}`,
        );
      }
    } finally {
      this.#asking.delete(request.id);
    }
    await this.controller.answerApproval(request.id, choice);
  }
}

function withTerminal(terminalId: string) {
  return { status: "in_progress" as const, content: [{ type: "terminal" as const, terminalId }] };
}

const CHOICES: readonly ApprovalChoice[] = ["allow_once", "allow_session", "allow_always", "deny"];

function choiceOf(optionId: string, request: ApprovalRequest): ApprovalChoice {
  const choice = CHOICES.find((c) => c === optionId) ?? "deny";
  // A remembered grant needs a rule; without one only this call can be allowed.
  return request.suggestedRule === null && choice !== "deny" ? "allow_once" : choice;
}

export function permissionOptions(request: ApprovalRequest): acp.PermissionOption[] {
  const rule = request.suggestedRule;
  return [
    { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
    ...(rule === null ? [] : [
      { optionId: "allow_session", name: `Allow ${rule} for this session`, kind: "allow_always" as const },
      {
        optionId: "allow_always",
        name: `Always allow ${rule} in this workspace`,
        kind: "allow_always" as const,
      },
    ]),
    { optionId: "deny", name: "Reject", kind: "reject_once" },
  ];
}
