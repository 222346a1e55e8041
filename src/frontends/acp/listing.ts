/**
 * @module
 * `session/list` and `session/delete` over control's session admin: a workspace's stored sessions.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { adminContext, sessionDelete, sessionList } from "../../control/mod.ts";
import { ReasonixError } from "../../lib/errors.ts";

const TITLE_CHARS = 80;

export async function listSessions(cwd: string): Promise<acp.SessionInfo[]> {
  const sessions = await sessionList(await adminContext(cwd));
  return sessions.map((session) => ({
    sessionId: session.id,
    cwd: session.workspace,
    title: session.title ?? session.firstMessage?.slice(0, TITLE_CHARS) ?? null,
    updatedAt: session.modifiedAt,
  }));
}

export async function deleteSession(cwd: string, id: string): Promise<void> {
  if (await sessionDelete(await adminContext(cwd), id)) return;
  throw new ReasonixError("session.not_found", `No session "${id}" in ${cwd}`);
}
