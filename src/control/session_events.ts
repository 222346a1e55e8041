/**
 * @module
 * What a face receives when it attaches to a session: the announcement with the figures so far, the
 * replayed log, then what is true only in this process (a resume notice, warnings, jobs, open cards).
 * Also which desk events (approvals, questions) the log records.
 */
import type { ApprovalRequest, ReasonixEvent } from "./events.ts";
import type { LoggedRecord, SessionLog } from "../session/log.ts";
import type { SessionEntry } from "../session/store.ts";
import { lineOf } from "../session/turns.ts";
import { t } from "../lib/i18n/mod.ts";
import type { PendingQuestion } from "./questions.ts";
import type { ProposedPlan } from "../tool/plan.ts";
import { replayEvents, turnsLeftBehind } from "./replay.ts";
import { resumedNotice, sessionFigures } from "./session_figures.ts";

/**
 * `fromSeq` absent: the whole session as it stands (a face attaching); set: what came after it, or
 * the whole line again (`redraw`) when the conversation moved since.
 */
export interface SubscribeOptions {
  fromSeq?: number;
}

type SessionStarted = Extract<ReasonixEvent, { type: "session_started" }>;

export interface SnapshotParts {
  announcement: SessionStarted;
  resumed: boolean;
  warnings: readonly string[];
  runningJobs: number;
  approvals: readonly ApprovalRequest[];
  questions: readonly PendingQuestion[];
  plan?: ProposedPlan | null;
  redraw?: boolean;
}

/** What a snapshot reads from the Controller and its current session. */
export interface SnapshotSource {
  announcement(figuresUpTo?: number): SessionStarted;
  runningJobs(): number;
  pendingApprovals(): ApprovalRequest[];
  pendingQuestions(): PendingQuestion[];
}

export function snapshotOf(
  source: SnapshotSource,
  session: {
    log: SessionLog;
    resumed: boolean;
    warnings?: string[];
    plans?: { pending(): ProposedPlan | null };
  },
  options: SubscribeOptions & { redraw?: boolean } = {},
): ReasonixEvent[] {
  const records = session.log.since(0);
  const { fromSeq } = options;
  const moved = fromSeq !== undefined &&
    records.some((record) => record.seq > fromSeq && (record.type === "rewind" || record.type === "switch"));
  if (fromSeq !== undefined && !moved) return replayEvents(records, fromSeq);
  return sessionSnapshot(records, {
    announcement: source.announcement(0),
    resumed: session.resumed,
    warnings: session.warnings ?? [],
    runningJobs: source.runningJobs(),
    approvals: source.pendingApprovals(),
    questions: source.pendingQuestions(),
    plan: session.plans?.pending() ?? null,
    redraw: moved || options.redraw === true,
  });
}

export function sessionSnapshot(records: readonly LoggedRecord[], parts: SnapshotParts): ReasonixEvent[] {
  const replayed = replayEvents(records, 0);
  const turns = replayed.some((event) => event.type === "turn_started");
  const id = records[0]?.type === "session" ? records[0].id : "";
  const onLine = new Set(lineOf(records));
  const behind = records.filter((_, index) => !onLine.has(index));
  const announcement: SessionStarted = {
    ...parts.announcement,
    figures: { ...sessionFigures(behind), turns: 0 },
    ...(parts.redraw ? { redraw: true } : {}),
  };
  return [
    announcement,
    ...replayed,
    ...leftBehindNotice(records),
    ...(parts.resumed && turns ? [{ type: "notice" as const, message: resumedNotice(records, id) }] : []),
    ...parts.warnings.map((message) => ({ type: "warning" as const, message })),
    ...(parts.runningJobs > 0 ? [{ type: "jobs" as const, running: parts.runningJobs }] : []),
    ...parts.approvals.map((request) => ({ type: "approval_requested" as const, request })),
    ...parts.questions.map(({ id, questions }) => ({ type: "question_asked" as const, id, questions })),
    ...(parts.plan ? [{ type: "plan_proposed" as const, plan: parts.plan }] : []),
  ];
}

/** One line naming the turns on other branches, which the snapshot does not show. */
function leftBehindNotice(records: readonly LoggedRecord[]): ReasonixEvent[] {
  const { turns, branches } = turnsLeftBehind(records);
  if (turns === 0) return [];
  const key = turns === 1 ? "session.line_hidden_one" : "session.line_hidden";
  return [{ type: "notice", message: t(key, { turns, branches: branches.join(", ") }) }];
}

export function announcementEvent(
  log: SessionLog,
  session: { resumed: boolean; model: string; provider: string },
  figuresUpTo?: number,
): SessionStarted {
  const figures = figuresUpTo === undefined
    ? {}
    : { figures: sessionFigures(log.since(0).filter((record) => record.seq <= figuresUpTo)) };
  return { type: "session_started", sessionId: log.id, ...session, ...figures };
}

/** The log entry an approval or question event (or the desk's notice) becomes; null for any other event. */
export function deskEntry(event: ReasonixEvent): SessionEntry | null {
  switch (event.type) {
    case "approval_requested": {
      const { id, callId, tool, subject } = event.request;
      return { kind: "approval_asked", id, callId, tool, subject };
    }
    case "approval_resolved":
      return {
        kind: "approval_answered",
        id: event.id,
        choice: event.choice,
        ...(event.cancelled ? { cancelled: true } : {}),
        ...(event.reason ? { reason: event.reason } : {}),
      };
    case "question_asked":
      return { kind: "question_asked", id: event.id, questions: event.questions };
    case "question_resolved":
      return {
        kind: "question_answered",
        id: event.id,
        outcome: event.outcome,
        ...(event.answers ? { answers: event.answers } : {}),
      };
    case "notice":
      return { kind: "notice", level: "info", text: event.message };
    case "plan_proposed":
      return { kind: "plan_proposed", plan: event.plan };
    case "plan_resolved": {
      const { plan, outcome, feedback, mode } = event;
      return {
        kind: "plan_resolved",
        plan,
        outcome,
        ...(feedback ? { feedback } : {}),
        ...(mode ? { mode } : {}),
      };
    }
    default:
      return null;
  }
}
