/**
 * @module
 * What a person does in a session: type (the Controller's `submit`, so slash commands work as in the
 * TUI), cancel, answer approvals and questions, pick model, effort and mode, read status and usage,
 * rewind. The answers of a turn arrive on the event stream; the request returns once it started.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { normalizeEffort } from "../../control/mod.ts";
import type { ServeEnv } from "./auth.ts";
import type { OpenSession, SessionHub } from "./hub.ts";
import { refuse, refuseError } from "./refuse.ts";
import { readBody } from "./body.ts";
import { liveInfo } from "./routes_sessions.ts";
import { eventStream } from "./sse.ts";
import { answerPlan } from "./routes_plan.ts";

const InputBody = z.object({ text: z.string().min(1).max(500_000) }).strict();
const ApprovalBody = z.object({
  choice: z.enum(["allow_once", "allow_session", "allow_always", "deny"]),
  reason: z.string().max(2000).optional(),
}).strict();
const QuestionBody = z.union([
  z.object({ declined: z.literal(true) }).strict(),
  z.object({
    answers: z.array(z.object({ labels: z.array(z.string()), other: z.string().optional() }).strict()),
  }).strict(),
]);
const ModelBody = z.object({ model: z.string().min(1).max(200) }).strict();
const EffortBody = z.object({ effort: z.string().min(1).max(20) }).strict();
const ModeBody = z.object({ mode: z.enum(["ask", "auto", "yolo", "plan"]) }).strict();
const RewindBody = z.union([
  z.object({
    turn: z.number().int().min(1),
    scope: z.enum(["both", "conversation", "code"]),
    force: z.boolean().optional(),
  }).strict(),
  z.object({ undo: z.literal(true), force: z.boolean().optional() }).strict(),
]);

type Handler = (c: Context<ServeEnv>, session: OpenSession) => Promise<Response> | Response;

export function turnRoutes(app: Hono<ServeEnv>, hub: SessionHub): void {
  const on = (handler: Handler) => async (c: Context<ServeEnv>) => {
    try {
      return await handler(c, await hub.open(c.req.param("id")!));
    } catch (error) {
      return refuseError(c, error);
    }
  };
  app.get(
    "/api/sessions/:id/events",
    on((c, session) => {
      const after = c.req.header("last-event-id") ?? c.req.query("after") ?? null;
      return eventStream(session, after);
    }),
  );
  app.post("/api/sessions/:id/input", on(input));
  app.post(
    "/api/sessions/:id/cancel",
    on((c, { controller }) => {
      controller.interrupt();
      return c.json({ ok: true });
    }),
  );
  app.get("/api/sessions/:id/status", on((c, session) => c.json(liveInfo(session))));
  app.get("/api/sessions/:id/usage", on((c, { controller }) => c.json(controller.totals())));
  app.get(
    "/api/sessions/:id/pending",
    on((c, { controller }) =>
      c.json({
        approvals: controller.pendingApprovals(),
        questions: controller.pendingQuestions(),
        plan: controller.plans?.pending() ?? null,
      })
    ),
  );
  app.post("/api/sessions/:id/approvals/:approvalId", on(approve));
  app.post("/api/sessions/:id/questions/:questionId", on(answer));
  app.post("/api/sessions/:id/plans/:revision", on(answerPlan));
  settingRoutes(app, on);
}

function settingRoutes(
  app: Hono<ServeEnv>,
  on: (handler: Handler) => (c: Context<ServeEnv>) => Promise<Response>,
) {
  app.get(
    "/api/sessions/:id/models",
    on(async (c, { controller }) => {
      return c.json({ current: controller.model, models: await controller.sessions?.models() ?? [] });
    }),
  );
  app.put(
    "/api/sessions/:id/model",
    on(async (c, session) => {
      const body = await readBody(c, ModelBody);
      if (body instanceof Response) return body;
      if (!session.controller.sessions) {
        return refuse(c, 409, "session.fixed", "This session cannot switch models");
      }
      await session.controller.sessions.switchModel(body.model);
      return c.json(liveInfo(session));
    }),
  );
  app.put(
    "/api/sessions/:id/effort",
    on(async (c, session) => {
      const body = await readBody(c, EffortBody);
      if (body instanceof Response) return body;
      session.controller.setEffort(normalizeEffort(body.effort));
      return c.json(liveInfo(session));
    }),
  );
  app.put(
    "/api/sessions/:id/mode",
    on(async (c, session) => {
      const body = await readBody(c, ModeBody);
      if (body instanceof Response) return body;
      session.controller.setPermissionMode(body.mode);
      return c.json(liveInfo(session));
    }),
  );
  app.get(
    "/api/sessions/:id/checkpoints",
    on(async (c, { controller }) => c.json(await controller.rewindState())),
  );
  app.post(
    "/api/sessions/:id/rewind",
    on(async (c, { controller }) => {
      const body = await readBody(c, RewindBody);
      if (body instanceof Response) return body;
      const outcome = await controller.rewind(body);
      const { history: _history, ...shown } = outcome;
      return c.json(shown, outcome.status === "done" ? 200 : 409);
    }),
  );
}

/**
 * A model turn (or a command that runs turns, `/goal <objective>`) starts and the request returns (202); any
 * other slash command runs and returns its answer.
 */
async function input(c: Context<ServeEnv>, { controller, journal }: OpenSession): Promise<Response> {
  const body = await readBody(c, InputBody);
  if (body instanceof Response) return body;
  const resolved = controller.commands.resolve(body.text);
  const turns = resolved.kind === "text" ||
    (resolved.kind === "command" && resolved.command.runsTurns?.(resolved.args));
  if (!turns) {
    const result = await controller.submit(body.text);
    return c.json(result);
  }
  if (controller.busy) return refuse(c, 409, "session.busy", "A turn is running: wait for it or cancel it");
  const from = journal.lastId;
  // The turn's failures end it with a turn_done event; nothing it throws is left unhandled.
  controller.submit(body.text).catch(() => {});
  return c.json({ kind: "turn", started: true, after: from }, 202);
}

async function approve(c: Context<ServeEnv>, { controller }: OpenSession): Promise<Response> {
  const body = await readBody(c, ApprovalBody);
  if (body instanceof Response) return body;
  const id = c.req.param("approvalId")!;
  if (!(await controller.answerApproval(id, body.choice, body.reason))) {
    return refuse(c, 404, "approval.not_waiting", `No approval "${id}" is waiting`);
  }
  return c.json({ ok: true });
}

async function answer(c: Context<ServeEnv>, { controller }: OpenSession): Promise<Response> {
  const body = await readBody(c, QuestionBody);
  if (body instanceof Response) return body;
  const id = c.req.param("questionId")!;
  const reply = "declined" in body ? "declined" as const : body.answers.map((a) => ({
    labels: a.labels,
    ...(a.other !== undefined ? { other: a.other } : {}),
  }));
  if (!controller.answerQuestion(id, reply)) {
    return refuse(
      c,
      404,
      "question.not_waiting",
      `No question "${id}" is waiting, or the answer does not fit it`,
    );
  }
  return c.json({ ok: true });
}
