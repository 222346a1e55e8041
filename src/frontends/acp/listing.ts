/**
 * @module
 * `session/list` and `session/delete` over control's session admin: a workspace's stored sessions.
 */
import type * as acp from "@agentclientprotocol/sdk";
import { adminContext, deleteSession as deleteStored, sessionList } from "../../control/mod.ts";

const TITLE_CHARS = 80;

export async function listSessions(cwd: string): Promise<acp.SessionInfo[]> {
  const sessions = await sessionList(await adminContext(cwd));
  return sessions.map((session) => ({
    sessionId: session.id,
    cwd: session.workspace,
    title: session.title ?? session.firstMessage?.slice(0, TITLE_CHARS) ?? null,
    updatedAt: session.modifiedAt,
    // A subagent's session names the session that started it (docs/SUBAGENTS.md).
    ...(session.parent ? { _meta: { parentSessionId: session.parent } } : {}),
  }));
}

export async function deleteSession(cwd: string, id: string): Promise<void> {
  await deleteStored(await adminContext(cwd), id);
}
