/**
 * @module
 * What the memory tools reach through their context: the store, a person to approve a change (the
 * Controller's approval desk, asked even in auto or yolo), and the session to tell about a change. A
 * context without it (a subagent, an embedding) has no memory, and a headless one cannot change it.
 */
import type { FileChange, ToolContext } from "../tool.ts";
import { ToolError } from "../tool.ts";
import { theirReason } from "../consent.ts";
import { type Fact, formatFact } from "./fact.ts";
import { changeNote } from "./index_text.ts";
import { approvalReasons, type MemoryChange } from "./policy.ts";
import type { MemoryStore } from "./store.ts";

export interface MemoryAsk {
  /** The model's call id, so faces tie the card to the call. */
  callId: string;
  tool: string;
  /** The call's arguments as JSON, for the card. */
  arguments: string;
  /** `remember m-… (project)`: what the card names. */
  subject: string;
  reasons: readonly string[];
  preview: FileChange;
}

export type MemoryAnswer =
  | { kind: "approved" }
  | { kind: "declined"; reason?: string }
  | { kind: "cancelled" }
  | { kind: "unanswerable" };

export interface MemoryAccess {
  store: MemoryStore;
  /** False in a headless run (`reasonix run`): every change fails closed. */
  interactive: boolean;
  /** Asks a person, whatever the permission mode; never remembers the answer. */
  confirm(ask: MemoryAsk, signal: AbortSignal): Promise<MemoryAnswer>;
  /** Tells the running session (a tail note on its next turn). */
  changed(note: string): void;
  now(): Date;
}

export function memoryOf(ctx: ToolContext): MemoryAccess {
  if (!ctx.memory) {
    throw new ToolError(
      "memory.unavailable",
      "Memory is not available here (a subagent or an embedded run has none): nothing was read or changed",
    );
  }
  return ctx.memory;
}

const VERBS = { create: "saved", update: "updated", forget: "forgotten", restore: "restored" } as const;

/** Checks, asks when the policy says so, writes, and tells the session; returns the tool's output. */
export async function applyChange(
  change: MemoryChange,
  ctx: ToolContext,
  call: { tool: string; arguments: unknown },
): Promise<string> {
  const memory = memoryOf(ctx);
  const { next, previous } = change;
  if (!memory.interactive) {
    throw new ToolError(
      "memory.needs_approval",
      `Not ${VERBS[change.kind]}: changing memory needs a person, and this is a headless run where nobody ` +
        `can approve. Tell the user what you would remember or forget instead`,
    );
  }
  const reasons = approvalReasons(change);
  if (reasons.length > 0) {
    const answer = await memory.confirm({
      callId: ctx.callId ?? "",
      tool: call.tool,
      arguments: JSON.stringify(call.arguments),
      subject: `${call.tool} ${next.name} (${next.scope})`,
      reasons,
      preview: preview(change, memory.store),
    }, ctx.signal);
    refuseUnless(answer, change, reasons);
  }
  await memory.store.write(next, previous);
  memory.changed(changeNote(VERBS[change.kind], next));
  const asked = reasons.length > 0 ? " (approved by the user)" : "";
  return `Memory ${
    VERBS[change.kind]
  }${asked}: ${next.name} (id ${next.id}, ${next.scope}, revision ${next.revision})`;
}

function refuseUnless(answer: MemoryAnswer, change: MemoryChange, reasons: readonly string[]): void {
  const what = `${VERBS[change.kind]} "${change.next.name}"`;
  switch (answer.kind) {
    case "approved":
      return;
    case "declined":
      throw new ToolError(
        "permission.denied",
        `The user declined: memory not ${what}${theirReason(answer.reason)}`,
      );
    case "cancelled":
      throw new ToolError("tool.aborted", `Not ${what}: the turn was cancelled while it waited for approval`);
    case "unanswerable":
      throw new ToolError(
        "memory.needs_approval",
        `Not ${what}: it needs a person's approval (${reasons.join("; ")}), and nobody can answer here`,
      );
  }
}

function preview(change: MemoryChange, store: MemoryStore): FileChange {
  const path = `${store.dirOf(change.next.scope)}/${change.next.id}.md`;
  const before = change.previous ? formatFact(change.previous) : null;
  const after: string | null = change.kind === "forget" ? null : formatFact(change.next);
  const kind = before === null ? "create" : after === null ? "delete" : "modify";
  return { path, kind, oldText: before, newText: after };
}

/** The fact as stored at `now`, one revision on from `previous`. */
export function nextRevision(previous: Fact, now: Date, change: Partial<Fact>): Fact {
  return { ...previous, ...change, revision: previous.revision + 1, updated: now.toISOString() };
}
