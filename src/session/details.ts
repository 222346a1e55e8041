/**
 * @module
 * What a session listing shows beyond the header: the title `/rename` recorded, the first thing the
 * user asked, and how many turns the session holds.
 */
import { loadSession, type SessionRecord } from "./store.ts";
import type { SessionSummary } from "./resume.ts";

export const TITLE_EVENT = "title";
/** Right after a subagent session's header: `{parent, depth, description, profile?}`. */
export const SUBAGENT_EVENT = "subagent";

export interface SessionDetails {
  /** The last title recorded with `/rename`; null when never named. */
  title: string | null;
  /** The first user turn as typed (turn notes removed); null before the first turn. */
  firstMessage: string | null;
  turns: number;
  /** A subagent's session: the id of the session that started it. */
  parent?: string;
  /** A subagent's session: what its link recorded, and how its last run ended. */
  child?: ChildDetails;
}

export interface ChildDetails {
  description: string;
  /** Its request was not read-only (a child recorded before links carried the request counts as a reader). */
  writer: boolean;
  /** Its last run did not end in success; false while no run ended. */
  failed: boolean;
}

export type DetailedSession = SessionSummary & SessionDetails;

const TURN_NOTES = /\n\n<turn-context>\n[\s\S]*\n<\/turn-context>$/;
const SKILL_PINS = /\n\n<skill-pin name="[^"]*">\n[\s\S]*?\n<\/skill-pin>/g;

export function sessionDetails(records: readonly SessionRecord[]): SessionDetails {
  let title: string | null = null;
  let parent: string | undefined;
  let child: ChildDetails | undefined;
  const userTexts: string[] = [];
  for (const record of records) {
    if (record.type === "event" && record.name === TITLE_EVENT) title = titleOf(record.data) ?? title;
    if (record.type === "event" && record.name === SUBAGENT_EVENT && parent === undefined) {
      parent = parentOf(record.data);
      if (parent !== undefined) child = childOf(record.data);
    }
    if (child && record.type === "entry" && record.entry.kind === "turn_end") {
      child.failed = record.entry.subtype !== "success";
    }
    if (record.type === "message" && record.message.role === "user") {
      userTexts.push(record.message.content);
    }
  }
  // The first user message of every session is its session-context message, not a turn.
  const turns = userTexts.slice(1);
  const first = turns[0] === undefined ? null : typedText(turns[0]);
  return {
    title,
    firstMessage: first,
    turns: turns.length,
    ...(parent ? { parent } : {}),
    ...(child ? { child } : {}),
  };
}

/** A user message as the person typed it: the turn notes and skill pins Reasonix appended removed. */
export function typedText(content: string): string {
  return content.replace(TURN_NOTES, "").replace(SKILL_PINS, "");
}

/** Reads each file whole; a file that no longer loads is left out. */
export async function withDetails(summaries: readonly SessionSummary[]): Promise<DetailedSession[]> {
  const detailed: DetailedSession[] = [];
  for (const summary of summaries) {
    try {
      const session = await loadSession(summary.file);
      detailed.push({ ...summary, ...sessionDetails(session.records) });
    } catch {
      continue;
    }
  }
  return detailed;
}

function titleOf(data: unknown): string | null {
  const title = (data as { title?: unknown } | undefined)?.title;
  return typeof title === "string" && title.trim() !== "" ? title.trim() : null;
}

function parentOf(data: unknown): string | undefined {
  const parent = (data as { parent?: unknown } | undefined)?.parent;
  return typeof parent === "string" && parent !== "" ? parent : undefined;
}

function childOf(data: unknown): ChildDetails {
  const link = data as { description?: unknown; request?: { readOnly?: unknown } };
  return {
    description: typeof link.description === "string" ? link.description : "",
    writer: link.request?.readOnly === false,
    failed: false,
  };
}
