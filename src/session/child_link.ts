/**
 * @module
 * A subagent's session read back by its id (a restarted parent's ref): the link right after its header (the
 * session that started it, and what it recorded of how it ran), the answer it last gave (its last `turn_end`)
 * and its system prompt. Only a file of this workspace's own sessions directory whose header carries that id
 * and this workspace counts; an id that could leave the directory reads nothing.
 */
import { join, resolve } from "node:path";
import { workspaceDir } from "./_paths.ts";
import { SUBAGENT_EVENT } from "./details.ts";
import { SESSION_ID } from "./history_corpus.ts";
import { loadSession } from "./store.ts";

export interface ChildSession {
  id: string;
  file: string;
  /** The session that started it. */
  parent: string;
  /** The `subagent` event's data as recorded (`parent`, `depth`, `description`, `profile`, `request`). */
  link: Readonly<Record<string, unknown>>;
  /** Its last run's answer (or error text); undefined when no run of it ended. */
  answer?: string;
  /** Its first system message: a profile's body or the default child prompt. */
  system?: string;
}

/** The child session `id` of `workspace`, or undefined when there is none (or it is no subagent's). */
export async function loadChildSession(
  sessionsDir: string,
  options: { workspace: string; id: string },
): Promise<ChildSession | undefined> {
  const { workspace, id } = options;
  if (!SESSION_ID.test(id)) return undefined;
  const file = join(workspaceDir(sessionsDir, workspace), `${id}.jsonl`);
  let session;
  try {
    session = await loadSession(file);
  } catch {
    return undefined;
  }
  if (session.header.id !== id || session.header.workspace !== resolve(workspace)) return undefined;
  const link = session.records.find((record) => record.type === "event" && record.name === SUBAGENT_EVENT);
  const data = link?.type === "event" ? link.data : undefined;
  if (!isRecord(data) || typeof data.parent !== "string" || data.parent === "") return undefined;
  let answer: string | undefined;
  let system: string | undefined;
  for (const record of session.records) {
    if (record.type === "entry" && record.entry.kind === "turn_end") answer = record.entry.result;
    if (record.type === "message" && record.message.role === "system") system ??= record.message.content;
  }
  return {
    id,
    file,
    parent: data.parent,
    link: data,
    ...(answer !== undefined ? { answer } : {}),
    ...(system !== undefined ? { system } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
