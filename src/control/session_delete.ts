/**
 * @module
 * Deletes a stored session: its JSONL file, its checkpoints and its goal, under the session's own lock so a
 * session another process (or a Controller of this one) is writing is refused with `session.locked`.
 */
import { checkpointDirFor } from "../session/checkpoints.ts";
import { goalFileFor } from "../session/goal_file.ts";
import { SessionLock } from "../session/lock.ts";
import { listWorkspaceSessions } from "../session/listing.ts";
import { ReasonixError } from "../lib/errors.ts";
import type { AdminContext } from "./admin.ts";

/** Removes the session whose id is `id` in this workspace; returns the file it removed. */
export async function deleteSession(ctx: AdminContext, id: string): Promise<string> {
  const found = (await listWorkspaceSessions(ctx.paths.sessionsDir, ctx.workspace)).find((s) => s.id === id);
  if (!found) throw new ReasonixError("session.not_found", `Cannot find session "${id}"`);
  const file = found.file;
  const lock = await SessionLock.acquire(file);
  try {
    if (lock.shared) {
      throw new ReasonixError("session.locked", `Cannot delete session "${id}": it is open`);
    }
    await Deno.remove(checkpointDirFor(file), { recursive: true }).catch(ignoreMissing);
    await Deno.remove(goalFileFor(file)).catch(ignoreMissing);
    await Deno.remove(file);
  } finally {
    lock.release();
  }
  return file;
}

function ignoreMissing(error: unknown): void {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
}
