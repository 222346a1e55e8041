/**
 * @module
 * `reasonix session checkpoints|rewind` without a model: find the session (an id, id prefix, path or
 * `latest`), open it as its writer, and rewind it the way the TUI's `/rewind` does.
 */
import { ReasonixError } from "../lib/errors.ts";
import { findSession, latestSession } from "../session/resume.ts";
import { SessionStore } from "../session/store.ts";
import type { AdminContext } from "./admin.ts";
import {
  rewind,
  type RewindOutcome,
  type RewindRequest,
  type RewindState,
  rewindState,
  type RewindTarget,
} from "./rewind.ts";

export interface SessionRewindReport {
  sessionId: string;
  file: string;
}

export async function sessionCheckpoints(
  ctx: AdminContext,
  query: string,
): Promise<SessionRewindReport & RewindState> {
  const { store, workspace } = await openSession(ctx, query);
  try {
    const state = await rewindState(target(store, workspace));
    return { sessionId: store.id, file: store.file, ...state };
  } finally {
    store.close();
  }
}

export async function sessionRewind(
  ctx: AdminContext,
  query: string,
  request: RewindRequest,
): Promise<SessionRewindReport & { outcome: RewindOutcome }> {
  const { store, workspace } = await openSession(ctx, query);
  try {
    const outcome = await rewind(target(store, workspace), request);
    return { sessionId: store.id, file: store.file, outcome };
  } finally {
    store.close();
  }
}

async function openSession(ctx: AdminContext, query: string) {
  const file = query === "latest"
    ? await latestSession(ctx.paths.sessionsDir, ctx.workspace)
    : await findSession(ctx.paths.sessionsDir, ctx.workspace, query);
  if (!file) throw new ReasonixError("session.none", `No session to rewind in ${ctx.workspace}`);
  const { store, session } = await SessionStore.open(file);
  const workspace = await Deno.realPath(session.header.workspace).catch(() => session.header.workspace);
  return { store, workspace };
}

function target(store: SessionStore, root: string): RewindTarget {
  return {
    store,
    workspace: { root, extraWritable: [], forbidRead: [] },
    now: () => new Date(),
  };
}
