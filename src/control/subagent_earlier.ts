/**
 * @module
 * The children of a conversation that an earlier process started: after a restart the pool knows only its
 * own, but every child's session stays in the workspace's sessions directory, linked to its parent. `/tree`
 * and `/agents show` list them beside the live ones, read from the session listing (its cached index).
 */
import { listWorkspaceSessions } from "../session/listing.ts";
import type { ChildSummary } from "./subagent_pool.ts";

/** Deeper than any `max_subagent_depth` in use; a damaged chain stops here. */
const MAX_DEPTH = 16;

/** Every descendant of `conversation` on disk, each after its parent, oldest first among siblings. */
export async function earlierChildren(
  sessionsDir: string,
  workspace: string,
  conversation: string,
): Promise<ChildSummary[]> {
  const listed = await listWorkspaceSessions(sessionsDir, workspace);
  const byParent = new Map<string, typeof listed>();
  for (const session of listed) {
    if (session.parent === undefined) continue;
    byParent.set(session.parent, [...(byParent.get(session.parent) ?? []), session]);
  }
  const found: ChildSummary[] = [];
  const visit = (parent: string, depth: number) => {
    if (depth > MAX_DEPTH) return;
    const children = (byParent.get(parent) ?? []).toSorted((a, b) => a.createdAt.localeCompare(b.createdAt));
    for (const child of children) {
      found.push({
        sessionId: child.id,
        parentId: parent,
        depth,
        description: child.child?.description || (child.firstMessage ?? ""),
        writer: child.child?.writer ?? false,
        status: child.child?.failed ? "failed" : "done",
      });
      visit(child.id, depth + 1);
    }
  };
  visit(conversation, 1);
  return found;
}
