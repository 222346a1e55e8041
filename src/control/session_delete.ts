/**
 * @module
 * Deletes one of a workspace's stored sessions by its exact id (ACP's `session/delete`): the log, its
 * checkpoints and its lock. A session some process has open is refused (its lock is held).
 */
import { ReasonixError } from "../lib/errors.ts";
import { listWorkspaceSessions } from "../session/listing.ts";
import { lockPath, SessionLock } from "../session/lock.ts";
import { checkpointDirFor } from "../session/checkpoints.ts";
import type { AdminContext } from "./admin.ts";

/** False when the workspace has no session with this id. */
export async function sessionDelete(ctx: AdminContext, id: string): Promise<boolean> {
  const sessions = await listWorkspaceSessions(ctx.paths.sessionsDir, ctx.workspace);
  const found = sessions.find((session) => session.id === id);
  if (!found) return false;
  const lock = await SessionLock.acquire(found.file).catch((error) => {
    throw new ReasonixError("session.busy", `Cannot delete session "${id}": it is open`, { cause: error });
  });
  try {
    await Deno.remove(found.file);
    await Deno.remove(checkpointDirFor(found.file), { recursive: true }).catch(() => {});
    await Deno.remove(lockPath(found.file)).catch(() => {});
  } finally {
    lock.release();
  }
  return true;
}
