/**
 * @module
 * Turns the records of a session log into the events a face would have seen live, each carrying the
 * seq of its record, so a face that attaches late (or reconnects) renders the stored session with the
 * same reducer it uses for live events. Only the current line is replayed: turns left on other branches
 * (by `/switch` or a conversation rewind) are counted, not shown. Files written before turn entries
 * existed are mapped too.
 */
import { childSpendOf, SUBAGENT_USAGE_EVENT } from "../session/child_spend.ts";
import { isSummaryPrompt } from "../agent/compaction.ts";
import { STEP_LIMIT_NOTE } from "../agent/loop.ts";
import { isSteerMessage, steeredText } from "../agent/steer.ts";
import { isHostNote } from "../agent/host_note.ts";
import type { ChatMessage } from "../provider/provider.ts";
import type { LoggedRecord } from "../session/log.ts";
import { branchTree } from "../session/branches.ts";
import { CLOSING_NOTE } from "../session/repair.ts";
import { lineOf } from "../session/turns.ts";
import type { SessionEntry, SessionRecord, ToolOutcomeMeta } from "../session/store.ts";
import type { ProposedPlan } from "../tool/plan.ts";
import type { Question, QuestionAnswer } from "../tool/question.ts";
import type { ReasonixEvent } from "./events.ts";
import { shownCall } from "../tool/capability.ts";

const TURN_NOTES = /\n\n<turn-context>\n[\s\S]*\n<\/turn-context>$/;
const CONTEXT_OPEN = "<session-context";

interface ReplayState {
  /** The file has turn entries (written by this version); otherwise user messages stand for turns. */
  entries: boolean;
  turn: number;
  open: boolean;
  requests: number;
  /** The next assistant message answers a compaction request: not part of the conversation. */
  summaryNext: boolean;
  readOnly: Map<string, boolean>;
  /** Call id → the tool that ran, for calls made through use_capability. */
  inner: Map<string, string>;
  /** Approval id → what was asked, for the answer's event (faces show it as a settled line). */
  asked: Map<string, { tool: string; subject: string | null }>;
  /** Question id → the questions asked, for the answer's event (likewise). */
  questions: Map<string, Question[]>;
}

/**
 * `all`: the whole log (to find the turn numbering); events are produced for the records of the current
 * line above `fromSeq`.
 */
export function replayEvents(all: readonly LoggedRecord[], fromSeq = 0): ReasonixEvent[] {
  const state: ReplayState = {
    entries: hasTurnEntries(all),
    turn: 0,
    open: false,
    requests: 0,
    summaryNext: false,
    readOnly: toolModes(all),
    inner: new Map(),
    asked: new Map(),
    questions: new Map(),
  };
  const events: ReasonixEvent[] = [];
  for (const index of lineOf(all)) {
    const record = all[index]!;
    const produced = eventsOf(record, state).map((event) => ({ ...event, seq: record.seq }));
    if (record.seq > fromSeq) events.push(...produced);
  }
  if (state.open && !state.entries) {
    events.push({ type: "turn_done", subtype: "success", result: "", seq: all.at(-1)?.seq ?? 0 });
  }
  return withoutShownClosingNotes(events);
}

/**
 * A failed or interrupted turn's closing note is history for the model; live, a face showed the turn's
 * end (turn_done) and no note, so a replay drops the note's text where that turn_done follows. A turn a
 * killed process left keeps it: its note is all that says how it ended.
 */
function withoutShownClosingNotes(events: ReasonixEvent[]): ReasonixEvent[] {
  return events.filter((event, index) => {
    if (event.type !== "text" || !CLOSING_NOTE.test(event.text)) return true;
    const end = events.slice(index + 1).find((later) =>
      later.type === "turn_done" || later.type === "turn_started"
    );
    return !(end?.type === "turn_done" && end.subtype !== "success");
  });
}

function eventsOf(record: LoggedRecord, state: ReplayState): ReasonixEvent[] {
  switch (record.type) {
    case "entry":
      return entryEvents(record, state);
    case "message":
      return messageEvents(record.message, record.tool, state);
    case "usage": {
      const { usage } = record;
      state.requests++;
      const hitRatio = usage.promptTokens > 0 ? usage.cacheHitTokens / usage.promptTokens : 0;
      return [{
        type: "usage",
        request: state.requests,
        model: record.model,
        usage,
        hitRatio,
        cost: record.cost,
        currency: record.currency,
      }];
    }
    case "compaction":
      if (record.reason === "snip") {
        return [{
          type: "notice",
          message: `Snipped old tool results: ~${record.beforeTokens} → ~${record.afterTokens} tokens`,
        }];
      }
      return [{
        type: "compaction",
        beforeTokens: record.beforeTokens,
        afterTokens: record.afterTokens,
        reason: record.reason === "manual" || record.reason === "forced" ? record.reason : "context_limit",
      }];
    case "event":
      if (record.name === SUBAGENT_USAGE_EVENT) return childSpent(record);
      return !state.entries && record.name === "turn_failed" ? closeTurn(state, record.data) : [];
    default:
      return [];
  }
}

/** A child's spend as a direct child's `spent` event, so a face's figures count it as they did live. */
function childSpent(record: SessionRecord): ReasonixEvent[] {
  const spend = childSpendOf(record);
  if (spend === null) return [];
  const { session, ...spent } = spend;
  const base = { sessionId: session, parentId: "", depth: 1, description: "", writer: false };
  return [{ type: "subagent", phase: "spent", ...base, spent }];
}

function entryEvents(record: Extract<SessionRecord, { type: "entry" }>, state: ReplayState): ReasonixEvent[] {
  const entry = record.entry;
  switch (entry.kind) {
    case "turn":
      state.turn = entry.turn;
      return [{ type: "turn_started", turn: entry.turn, text: entry.text }];
    case "turn_end":
      return [{ type: "turn_done", subtype: entry.subtype, result: entry.result }];
    case "notice":
      return [
        entry.level === "warning" ? { type: "warning", message: entry.text } : {
          type: "notice",
          message: entry.text,
        },
      ];
    case "plan_resolved":
      return [planResolved(entry)];
    case "approval_asked":
      state.asked.set(entry.id, { tool: entry.tool, subject: entry.subject });
      return [];
    case "approval_answered":
      return [approvalAnswered(entry, state.asked.get(entry.id))];
    case "question_asked":
      state.questions.set(entry.id, entry.questions as Question[]);
      return [];
    case "question_answered":
      return [questionAnswered(entry, state.questions.get(entry.id))];
    default:
      return [];
  }
}

/** A recorded answer as the event that settled it, with what was asked (faces show it as settled). */
function approvalAnswered(
  entry: Extract<SessionEntry, { kind: "approval_answered" }>,
  asked: { tool: string; subject: string | null } | undefined,
): ReasonixEvent {
  const choices = ["allow_once", "allow_session", "allow_always", "deny"] as const;
  const choice = choices.find((known) => known === entry.choice) ?? "deny";
  return {
    type: "approval_resolved",
    id: entry.id,
    choice,
    ...(entry.cancelled ? { cancelled: true } : {}),
    ...(entry.reason ? { reason: entry.reason } : {}),
    ...(asked ?? {}),
  };
}

/** A recorded answer to the `ask` tool as the event that settled it, with the questions asked. */
function questionAnswered(
  entry: Extract<SessionEntry, { kind: "question_answered" }>,
  questions: Question[] | undefined,
): ReasonixEvent {
  const outcomes = ["answered", "declined"] as const;
  return {
    type: "question_resolved",
    id: entry.id,
    outcome: outcomes.find((known) => known === entry.outcome) ?? "cancelled",
    ...(entry.answers ? { answers: entry.answers as QuestionAnswer[] } : {}),
    ...(questions ? { questions } : {}),
  };
}

function messageEvents(
  message: ChatMessage,
  tool: ToolOutcomeMeta | undefined,
  state: ReplayState,
): ReasonixEvent[] {
  if (message.role === "user") {
    if (isSteerMessage(message.content)) return [{ type: "steered", text: steeredText(message.content) }];
    if (isSummaryPrompt(message.content)) state.summaryNext = true;
    if (state.entries || !isTypedTurn(message.content)) return [];
    const closing = state.open ? [{ type: "turn_done", subtype: "success", result: "" } as const] : [];
    state.turn++;
    state.open = true;
    return [...closing, {
      type: "turn_started",
      turn: state.turn,
      text: message.content.replace(TURN_NOTES, ""),
    }];
  }
  if (message.role === "assistant") {
    if (state.summaryNext) {
      state.summaryNext = false;
      return [];
    }
    const events: ReasonixEvent[] = [];
    if (message.reasoning_content) events.push({ type: "reasoning", text: message.reasoning_content });
    if (message.content) events.push({ type: "text", text: message.content });
    events.push({ type: "message", message });
    for (const call of message.tool_calls ?? []) {
      const shown = shownCall(call.function);
      if (shown.name !== call.function.name) state.inner.set(call.id, shown.name);
      events.push({
        type: "tool_call",
        callId: call.id,
        ...shown,
        readOnly: state.readOnly.get(call.id) ?? false,
      });
    }
    return events;
  }
  if (message.role === "tool") {
    return [{
      type: "tool_result",
      callId: message.tool_call_id,
      name: state.inner.get(message.tool_call_id) ?? message.name ?? "",
      ok: tool?.ok ?? !message.content.startsWith("Error ["),
      output: message.content,
      ...(tool?.code ? { code: tool.code } : {}),
      durationMs: tool?.durationMs ?? 0,
      readOnly: tool?.readOnly ?? false,
      ...(tool?.data ? { data: tool.data as never } : {}),
    }];
  }
  return [];
}

/** The turns on other branches than the current one, and those branches, in order of creation. */
export function turnsLeftBehind(all: readonly LoggedRecord[]): { turns: number; branches: string[] } {
  const onLine = new Set(lineOf(all));
  const entries = hasTurnEntries(all);
  const tree = branchTree(all);
  const counted = new Set<number>();
  const branches: string[] = [];
  for (const branch of tree.branches) {
    if (branch.name === tree.current) continue;
    const hidden = lineOf(all, branch.head).filter((index) =>
      !onLine.has(index) && !counted.has(index) && isTurnRecord(all[index]!, entries)
    );
    for (const index of hidden) counted.add(index);
    if (hidden.length > 0) branches.push(branch.name);
  }
  return { turns: counted.size, branches };
}

function hasTurnEntries(all: readonly LoggedRecord[]): boolean {
  return all.some((record) => record.type === "entry" && record.entry.kind === "turn");
}

function isTurnRecord(record: LoggedRecord, entries: boolean): boolean {
  if (entries) return record.type === "entry" && record.entry.kind === "turn";
  return record.type === "message" && record.message.role === "user" && isTypedTurn(record.message.content);
}

function closeTurn(state: ReplayState, data: unknown): ReasonixEvent[] {
  if (!state.open) return [];
  state.open = false;
  const error = data as { code?: string; message?: string } | undefined;
  const message = typeof error?.message === "string" ? error.message : "";
  return [{
    type: "turn_done",
    subtype: "error_during_execution",
    result: message,
    error: { code: typeof error?.code === "string" ? error.code : "turn.failed", message },
  }];
}

function isTypedTurn(content: string): boolean {
  return !content.startsWith(CONTEXT_OPEN) && !isSummaryPrompt(content) && content !== STEP_LIMIT_NOTE &&
    !isSteerMessage(content) && !isHostNote(content);
}

function toolModes(records: readonly LoggedRecord[]): Map<string, boolean> {
  const modes = new Map<string, boolean>();
  for (const record of records) {
    if (record.type === "message" && record.message.role === "tool" && record.tool) {
      modes.set(record.message.tool_call_id, record.tool.readOnly);
    }
  }
  return modes;
}

/** A plan as it was decided; only resolved plans are replayed (an open card belongs to a live process). */
function planResolved(entry: Extract<SessionEntry, { kind: "plan_resolved" }>): ReasonixEvent {
  return {
    type: "plan_resolved",
    plan: entry.plan as ProposedPlan,
    outcome: entry.outcome as Extract<ReasonixEvent, { type: "plan_resolved" }>["outcome"],
    ...(entry.feedback ? { feedback: entry.feedback } : {}),
    ...(entry.mode ? { mode: entry.mode } : {}),
  };
}
