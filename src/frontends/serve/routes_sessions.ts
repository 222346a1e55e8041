/**
 * @module
 * `/api/sessions`: list, create, read, rename and delete sessions. Reading a session that is not open
 * answers from its file; renaming opens it (the rename is a record its one writer appends).
 */
import type { Hono } from "hono";
import { z } from "zod";
import { type AdminContext, deleteSession, sessionList } from "../../control/mod.ts";
import type { ServeEnv } from "./auth.ts";
import type { OpenSession, SessionHub } from "./hub.ts";
import { refuse, refuseError } from "./refuse.ts";
import { readBody } from "./body.ts";

const CreateBody = z.object({ model: z.string().min(1).max(200).optional() }).strict();
const RenameBody = z.object({ title: z.string().trim().min(1).max(200) }).strict();

export function sessionRoutes(app: Hono<ServeEnv>, hub: SessionHub, admin: AdminContext): void {
  app.get("/api/sessions", async (c) => {
    const stored = await sessionList(admin);
    const listed = new Set(stored.map((s) => s.id));
    const sessions = stored.map(({ file: _file, ...s }) => ({ ...s, open: hub.get(s.id) !== undefined }));
    const unwritten = hub.ids().filter((id) => !listed.has(id)).map((id) => liveInfo(hub.get(id)!));
    return c.json({ sessions: [...unwritten, ...sessions] });
  });
  app.post("/api/sessions", async (c) => {
    const body = await readBody(c, CreateBody);
    if (body instanceof Response) return body;
    try {
      const session = await hub.create(body.model ? { model: body.model } : {});
      return c.json(liveInfo(session), 201);
    } catch (error) {
      return refuseError(c, error);
    }
  });
  app.get("/api/sessions/:id", async (c) => {
    const id = c.req.param("id");
    const open = hub.get(id);
    if (open) return c.json(liveInfo(open));
    const stored = (await sessionList(admin)).find((s) => s.id === id);
    if (!stored) return refuse(c, 404, "session.not_found", `Cannot find session "${id}"`);
    const { file: _file, ...listing } = stored;
    return c.json({ ...listing, open: false });
  });
  app.patch("/api/sessions/:id", async (c) => {
    const body = await readBody(c, RenameBody);
    if (body instanceof Response) return body;
    try {
      const session = await hub.open(c.req.param("id"));
      await session.controller.rename(body.title);
      return c.json({ ...liveInfo(session), title: body.title });
    } catch (error) {
      return refuseError(c, error);
    }
  });
  app.delete("/api/sessions/:id", async (c) => {
    const id = c.req.param("id");
    const open = hub.get(id);
    if (open?.controller.busy) return refuse(c, 409, "session.busy", "A turn is running: cancel it first");
    const wasOpen = await hub.close(id);
    try {
      await deleteSession(admin, id);
    } catch (error) {
      // A session opened here but never written has no file: closing it was the whole deletion.
      if (!wasOpen) return refuseError(c, error);
    }
    return c.body(null, 204);
  });
}

/** What a face shows about an open session. */
export function liveInfo(session: OpenSession) {
  const { controller, journal } = session;
  return {
    id: controller.sessionId,
    open: true,
    written: controller.sessionWritten,
    model: controller.model,
    provider: controller.providerName,
    effort: controller.effort,
    mode: controller.permissionMode,
    busy: controller.busy,
    lastSeq: controller.lastSeq,
    lastEventId: journal.lastId,
    contextWindow: controller.contextWindow,
    runningJobs: controller.runningJobs(),
    totals: controller.totals(),
    pending: { approvals: controller.pendingApprovals(), questions: controller.pendingQuestions() },
  };
}
