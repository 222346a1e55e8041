/**
 * @module
 * `POST /api/sessions/:id/plans/:revision`: answers the plan waiting for review (plan mode) with
 * `{decision: "approve"|"revise"|"reject", feedback?}`. The revision in the path binds the answer: a
 * client still showing an older revision gets 409 `plan.stale`, and nothing is approved.
 */
import type { Context } from "hono";
import { z } from "zod";
import type { ServeEnv } from "./auth.ts";
import type { OpenSession } from "./hub.ts";
import { refuse } from "./refuse.ts";
import { readBody } from "./body.ts";

const PlanBody = z.object({
  decision: z.enum(["approve", "revise", "reject"]),
  feedback: z.string().max(4000).optional(),
}).strict();

export async function answerPlan(c: Context<ServeEnv>, { controller }: OpenSession): Promise<Response> {
  const body = await readBody(c, PlanBody);
  if (body instanceof Response) return body;
  const revision = Number(c.req.param("revision"));
  if (body.decision === "revise" && !body.feedback?.trim()) {
    return refuse(c, 400, "plan.no_feedback", "A revise answer needs feedback: say what should change");
  }
  if (!Number.isInteger(revision) || !controller.plans?.answer(revision, body.decision, body.feedback)) {
    const waiting = controller.plans?.pending()?.revision;
    const now = waiting === undefined ? "no plan is waiting" : `revision ${waiting} is waiting`;
    return refuse(c, 409, "plan.stale", `Plan revision "${c.req.param("revision")}" is not waiting: ${now}`);
  }
  return c.json({ ok: true });
}
