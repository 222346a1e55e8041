/**
 * @module
 * The TUI's view state and the pure reducer that folds Controller events into it: finished
 * transcript entries, the one entry still streaming, and the numbers the status line shows.
 */
import { childSpendStatus } from "./child_spend.ts";
import {
  type Activity,
  type ApprovalRequest,
  nextActivity,
  type PendingQuestion,
  progressLine,
  type ReasonixEvent,
} from "../../control/mod.ts";
import type { TranscriptEntry, UsageReceipt } from "./transcript_types.ts";
import type { FileChange } from "../../tool/tool.ts";
import { finishedMarkdownBlocks } from "./markdown_blocks.ts";
import { DEFAULT_VIEW, toggleLatestFold, type ViewSettings } from "./fold.ts";
import { errorNoticeText } from "./error_notice.ts";
import { subagentLine } from "./subagent_line.ts";
import { t } from "../../lib/i18n/mod.ts";
import { approvalLine, goalEventText, planText, type ProposedPlan } from "../../control/mod.ts";
import { clearTranscript, startSession } from "./session_view.ts";

type ToolEntry = Extract<TranscriptEntry, { kind: "tool" }>;

export interface StatusLine {
  model: string;
  provider: string;
  turn: number;
  sessionHitTokens: number;
  sessionPromptTokens: number;
  /** Prompt tokens of the latest request (after a compaction: its estimate), for the context share. */
  contextTokens: number;
  /** Cache-hit ratio (0..1) of the current turn's requests; null before its first request. */
  turnHitRatio: number | null;
  costTurn: number | null;
  costSession: number | null;
  currency: string | null;
  busy: boolean;
  pendingApproval: ApprovalRequest | null;
  /** Background jobs still running (from `jobs` events). */
  runningJobs: number;
}

export interface TuiState {
  entries: TranscriptEntry[];
  /** The streaming reasoning or answer entry; null between blocks. */
  live: TranscriptEntry | null;
  status: StatusLine;
  /** Prompt tokens and hits of the current turn, for `turnHitRatio`. */
  turnTokens: { prompt: number; hit: number };
  /** Every approval still waiting, oldest first; the status line shows the first. */
  approvals: ApprovalRequest[];
  /** The `ask` tool's question sets still waiting, oldest first; the card shows the first. */
  questions: PendingQuestion[];
  /** The plan waiting for review (plan mode); the plan card shows it. */
  plan: ProposedPlan | null;
  nextId: number;
  view: ViewSettings;
  /** What the running turn is doing, for the spinner line; null when idle. */
  activity: Activity | null;
}

export function initialState(view: ViewSettings = DEFAULT_VIEW): TuiState {
  return {
    entries: [],
    live: null,
    status: {
      model: "",
      provider: "",
      turn: 0,
      sessionHitTokens: 0,
      sessionPromptTokens: 0,
      contextTokens: 0,
      turnHitRatio: null,
      costTurn: null,
      costSession: null,
      currency: null,
      busy: false,
      pendingApproval: null,
      runningJobs: 0,
    },
    turnTokens: { prompt: 0, hit: 0 },
    approvals: [],
    questions: [],
    plan: null,
    nextId: 1,
    view,
    activity: null,
  };
}

/** Every entry the transcript shows now: the settled ones (running tools included), then the live block. */
export function visibleEntries(state: TuiState): TranscriptEntry[] {
  return state.live ? [...state.entries, state.live] : state.entries;
}

/**
 * What the face itself adds to the transcript (an error it caught); a slash command's answer arrives as
 * the `command_output` event, a `diff` one shown coloured.
 */
export type LocalAction =
  | { type: "command_output"; text: string }
  /** `/verbose`: entries that settle from now on stay unfolded. */
  | { type: "set_verbose"; on: boolean }
  /** Ctrl+O: see fold.ts. */
  | { type: "toggle_fold" }
  /** `/clear`: the transcript starts empty (the screen is wiped by the face). */
  | { type: "clear_transcript" }
  /** Events that arrived within one frame (event_batch.ts), folded in order. */
  | { type: "batch"; events: readonly ReasonixEvent[] };

export function reduce(state: TuiState, event: ReasonixEvent | LocalAction): TuiState {
  if (event.type === "batch") return event.events.reduce(reduce, state);
  const next = reduceOne(state, event);
  if (!isEvent(event)) return next;
  const activity = nextActivity(state.activity, event);
  return activity === next.activity ? next : { ...next, activity };
}

function isEvent(event: ReasonixEvent | LocalAction): event is ReasonixEvent {
  return !LOCAL_ACTIONS.has(event.type);
}

const LOCAL_ACTIONS = new Set(["command_output", "set_verbose", "toggle_fold", "clear_transcript", "batch"]);

function reduceOne(state: TuiState, event: ReasonixEvent | LocalAction): TuiState {
  switch (event.type) {
    case "batch":
      return event.events.reduce(reduce, state);
    case "command_output": {
      if (!("format" in event) || event.format === "text") return notice(state, "info", event.text);
      const [entryId, nextId] = id(settle(state));
      return append(settle(state), { kind: "patch", id: entryId, text: event.text }, nextId);
    }
    case "set_verbose":
      return setVerbose(state, event.on);
    case "toggle_fold":
      return toggleLatestFold(state);
    case "session_started":
      return startSession(state, event, initialState(state.view).status);
    case "clear_transcript":
      return clearTranscript(state);
    case "turn_started":
      return startTurn(state, event.turn, event.text);
    case "reasoning":
      return streamReasoning(state, event.text);
    case "text":
      return streamAnswer(state, event.text);
    case "tool_call":
      return startTool(state, event);
    case "tool_result":
      return finishTool(state, event);
    case "tool_progress":
      return progressTool(state, event.callId, progressLine(event));
    case "usage":
      return addUsage(state, event);
    case "compaction":
      return notice(withStatus(state, { contextTokens: event.afterTokens }), "info", compactedText(event));
    case "warning":
      return notice(state, "warning", event.message);
    case "notice":
      return notice(state, "info", event.message);
    case "steered":
      return notice(state, "info", t("notice.steered", { text: event.text }));
    case "jobs":
      return withStatus(state, { runningJobs: event.running });
    case "subagent": {
      const line = subagentLine(event), spent = childSpendStatus(state.status, event);
      const next = spent ? withStatus(state, spent) : state;
      return line === null ? next : notice(next, event.ok === false ? "warning" : "info", line);
    }
    case "goal_updated":
      return notice(state, "info", goalEventText(event.goal));
    case "retrying":
      return notice(
        state,
        "warning",
        t("notice.retrying", {
          attempt: event.attempt,
          max: event.maxAttempts,
          delay: event.delayMs,
          reason: event.reason,
        }),
      );
    case "approval_requested":
      return withApprovals(state, [...state.approvals, event.request]);
    case "approval_resolved":
      return resolveApproval(state, event);
    case "question_asked":
      return { ...state, questions: [...state.questions, { id: event.id, questions: event.questions }] };
    case "question_resolved":
      return { ...state, questions: state.questions.filter((pending) => pending.id !== event.id) };
    case "plan_proposed":
      return { ...state, plan: event.plan };
    case "plan_resolved": {
      const open = state.plan?.revision === event.plan.revision ? null : state.plan;
      return notice({ ...state, plan: open }, "info", planText(event.plan, event));
    }
    case "turn_done":
      return finishTurn(state, event);
    case "message":
      return state;
  }
}

function withStatus(state: TuiState, patch: Partial<StatusLine>): TuiState {
  return { ...state, status: { ...state.status, ...patch } };
}

function id(state: TuiState): [string, number] {
  return [`e${state.nextId}`, state.nextId + 1];
}

function append(state: TuiState, entry: TranscriptEntry, nextId: number): TuiState {
  return { ...state, entries: [...state.entries, entry], nextId };
}

/** Moves the live block into the finished entries. */
function settle(state: TuiState): TuiState {
  const live = state.live;
  if (!live) return state;
  const done: TranscriptEntry = live.kind === "reasoning"
    ? { ...live, streaming: false, folded: !state.view.verbose }
    : live.kind === "answer"
    ? { ...live, streaming: false }
    : live;
  return { ...state, entries: [...state.entries, done], live: null };
}

function startTurn(state: TuiState, turn: number, text: string): TuiState {
  const settled = settle(state);
  const [entryId, nextId] = id(settled);
  const next = append(settled, { kind: "user", id: entryId, text }, nextId);
  return {
    ...withStatus(next, { turn, busy: true, turnHitRatio: null, costTurn: null }),
    turnTokens: { prompt: 0, hit: 0 },
  };
}

function streamReasoning(state: TuiState, text: string): TuiState {
  if (state.live?.kind === "reasoning") {
    return { ...state, live: { ...state.live, text: state.live.text + text } };
  }
  const settled = settle(state);
  const [entryId, nextId] = id(settled);
  const live: TranscriptEntry = {
    kind: "reasoning",
    id: entryId,
    text,
    streaming: true,
    folded: !state.view.showReasoning && !state.view.verbose,
  };
  return { ...settled, live, nextId };
}

function streamAnswer(state: TuiState, text: string): TuiState {
  if (state.live?.kind === "answer") {
    return settleFinishedBlocks({ ...state, live: { ...state.live, text: state.live.text + text } });
  }
  const settled = settle(state);
  const [entryId, nextId] = id(settled);
  return settleFinishedBlocks({
    ...settled,
    live: { kind: "answer", id: entryId, text, streaming: true },
    nextId,
  });
}

/** Whole Markdown blocks of the live answer move to the entries, one each; the unfinished tail stays live. */
function settleFinishedBlocks(state: TuiState): TuiState {
  const live = state.live;
  if (live?.kind !== "answer") return state;
  const blocks = finishedMarkdownBlocks(live.text);
  if (blocks.length === 0) return state;
  const entries = [...state.entries];
  let nextId = state.nextId;
  let start = 0;
  for (const [index, length] of blocks.entries()) {
    const text = live.text.slice(start, start + length);
    entries.push({
      ...live,
      ...(index > 0 ? { id: `e${nextId++}` } : {}),
      text,
      streaming: false,
      continued: true,
    });
    start += length;
  }
  const tail: TranscriptEntry = {
    kind: "answer",
    id: `e${nextId++}`,
    text: live.text.slice(start),
    streaming: true,
  };
  return { ...state, entries, live: tail, nextId };
}

function startTool(
  state: TuiState,
  event: Extract<ReasonixEvent, { type: "tool_call" }>,
): TuiState {
  const settled = settle(state);
  const [entryId, nextId] = id(settled);
  const entry: ToolEntry = {
    kind: "tool",
    id: entryId,
    callId: event.callId,
    name: event.name,
    arguments: event.arguments,
    status: "running",
    readOnly: event.readOnly,
    folded: false,
  };
  return append(settled, entry, nextId);
}

/** Only a running call's card changes; a late report for a finished one is dropped. */
function progressTool(state: TuiState, callId: string, progress: string): TuiState {
  const index = state.entries.findIndex((entry) =>
    entry.kind === "tool" && entry.callId === callId && entry.status === "running"
  );
  if (index < 0) return state;
  const entries = [...state.entries];
  entries[index] = { ...(entries[index] as ToolEntry), progress };
  return { ...state, entries };
}

function finishTool(
  state: TuiState,
  event: Extract<ReasonixEvent, { type: "tool_result" }>,
): TuiState {
  let next = settle(state);
  // A face that reconnects may be sent a result it already showed.
  const shown = next.entries.some((entry) =>
    entry.kind === "tool" && entry.callId === event.callId &&
    (entry.status === "ok" || entry.status === "error")
  );
  if (shown) return next;
  const index = next.entries.findIndex((entry) =>
    entry.kind === "tool" && entry.callId === event.callId && entry.status !== "ok" &&
    entry.status !== "error"
  );
  let base: ToolEntry;
  if (index >= 0) {
    base = next.entries[index] as ToolEntry;
  } else {
    const [entryId, nextId] = id(next);
    base = toolEntry(entryId, event);
    next = { ...next, nextId };
  }
  const done: ToolEntry = {
    ...base,
    status: base.status === "denied" ? "denied" : event.ok ? "ok" : "error",
    durationMs: event.durationMs,
    output: event.output,
    ...(event.code ? { code: event.code } : {}),
    ...(event.data?.kind === "diff" ? { change: fileChange(event.data) } : {}),
    folded: !state.view.verbose,
  };
  const entries = index >= 0
    ? next.entries.map((entry, at) => at === index ? done : entry)
    : [...next.entries, done];
  next = { ...next, entries };
  const items = event.ok && event.data?.kind === "todo" && event.data.items.length > 0
    ? event.data.items
    : null;
  if (!items) return next;
  const [todoId, nextId] = id(next);
  return append(next, { kind: "todo", id: todoId, items }, nextId);
}

/** An edit's diff (from the tool's data, stored in the session) stays in the transcript, folded. */
function fileChange(data: { path: string; before: string | null; after: string | null }): FileChange {
  const kind = data.before === null ? "create" : data.after === null ? "delete" : "modify";
  return { path: data.path, kind, oldText: data.before, newText: data.after };
}

function toolEntry(entryId: string, event: Extract<ReasonixEvent, { type: "tool_result" }>) {
  return {
    kind: "tool",
    id: entryId,
    callId: event.callId,
    name: event.name,
    arguments: "",
    status: "running",
    readOnly: event.readOnly,
    folded: true,
  } satisfies ToolEntry;
}

function addUsage(state: TuiState, event: Extract<ReasonixEvent, { type: "usage" }>): TuiState {
  const usage = event.usage;
  const receipt: UsageReceipt = {
    promptTokens: usage.promptTokens,
    hitTokens: usage.cacheHitTokens,
    missTokens: usage.cacheMissTokens,
    completionTokens: usage.completionTokens,
    hitRatio: event.hitRatio,
    cost: event.cost,
    currency: event.currency,
  };
  const settled = settle(state);
  const [entryId, nextId] = id(settled);
  const next = state.view.showTurnUsage
    ? append(settled, { kind: "usage", id: entryId, receipt }, nextId)
    : settled;
  const turnTokens = {
    prompt: state.turnTokens.prompt + usage.promptTokens,
    hit: state.turnTokens.hit + usage.cacheHitTokens,
  };
  const status = state.status;
  return {
    ...withStatus(next, {
      sessionHitTokens: status.sessionHitTokens + usage.cacheHitTokens,
      sessionPromptTokens: status.sessionPromptTokens + usage.promptTokens,
      contextTokens: usage.promptTokens,
      turnHitRatio: turnTokens.prompt > 0 ? turnTokens.hit / turnTokens.prompt : null,
      costTurn: plus(status.costTurn, event.cost),
      costSession: plus(status.costSession, event.cost),
      currency: event.currency ?? status.currency,
    }),
    turnTokens,
  };
}

function plus(total: number | null, cost: number | null): number | null {
  return cost === null ? total : (total ?? 0) + cost;
}

function notice(state: TuiState, level: "info" | "warning" | "error", text: string): TuiState {
  const settled = settle(state);
  const [entryId, nextId] = id(settled);
  return append(settled, { kind: "notice", id: entryId, level, text }, nextId);
}

function withApprovals(state: TuiState, approvals: ApprovalRequest[]): TuiState {
  return { ...withStatus(state, { pendingApproval: approvals[0] ?? null }), approvals };
}

function resolveApproval(
  state: TuiState,
  event: Extract<ReasonixEvent, { type: "approval_resolved" }>,
): TuiState {
  const pending = state.approvals.find((request) => request.id === event.id);
  // A replayed answer (a resumed session) carries what was asked: the same line as live.
  if (!pending) {
    return event.tool
      ? notice(state, "info", approvalLine({ tool: event.tool, subject: event.subject ?? null }, event))
      : state;
  }
  const rest = withApprovals(state, state.approvals.filter((request) => request !== pending));
  // The answer stays in the transcript, worded as a resumed session replays it (control/approval_line.ts).
  const next = notice(rest, "info", approvalLine(pending, event));
  if (event.choice !== "deny") return next;
  const entries = next.entries.map((entry) =>
    entry.kind === "tool" && entry.callId === pending.callId && entry.status === "running"
      ? { ...entry, status: "denied" as const }
      : entry
  );
  return { ...next, entries };
}

function finishTurn(
  state: TuiState,
  event: Extract<ReasonixEvent, { type: "turn_done" }>,
): TuiState {
  const next = withStatus({ ...withApprovals(settle(state), []), questions: [], plan: null }, {
    busy: false,
  });
  if (event.subtype === "success") return next;
  // The person stopped the turn: that is news, not a failure.
  const level = event.error && STOPPED_BY_USER.has(event.error.code) ? "info" : "error";
  return notice(next, level, errorNoticeText(event.error, event.result));
}

const STOPPED_BY_USER = new Set(["turn.interrupted", "turn.terminated", "turn.hangup"]);

function setVerbose(state: TuiState, verbose: boolean): TuiState {
  const view = { ...state.view, verbose };
  const live = state.live?.kind === "reasoning"
    ? { ...state.live, folded: !verbose && !view.showReasoning }
    : state.live;
  return { ...state, view, live };
}

const REASON_KEYS = {
  manual: "notice.compact_manual",
  context_limit: "notice.compact_context_limit",
  forced: "notice.compact_forced",
} as const;

function compactedText(event: Extract<ReasonixEvent, { type: "compaction" }>): string {
  const reason = t(REASON_KEYS[event.reason]);
  return t("notice.compacted", { reason, before: event.beforeTokens, after: event.afterTokens });
}
