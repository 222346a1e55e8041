/**
 * @module
 * Reasonix's own ACP methods, all under `_reasonix.io/` and listed in
 * `agentCapabilities._meta["reasonix.io"].methods`. `session/steer` queues text for the running turn's next
 * model request (the Controller's steering, src/control/steering.ts) and echoes it as the user's message.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Sessions } from "./agent.ts";
import { requestError } from "./errors.ts";
import { ReasonixError } from "../../lib/errors.ts";

export const STATUS_METHOD = "_reasonix.io/session/status";
export const STEER_METHOD = "_reasonix.io/session/steer";
export const VENDOR_METHODS = [STATUS_METHOD, STEER_METHOD] as const;

interface SessionRef {
  sessionId: string;
}

function sessionRef(params: unknown): SessionRef {
  const id = (params as { sessionId?: unknown } | null)?.sessionId;
  if (typeof id !== "string") throw new TypeError("Expected params.sessionId, a string");
  return { sessionId: id };
}

function steerParams(params: unknown): SessionRef & { text: string } {
  const text = (params as { text?: unknown } | null)?.text;
  if (typeof text !== "string" || text.trim() === "") {
    throw new TypeError("Expected params.text, a non-empty string");
  }
  return { ...sessionRef(params), text };
}

export function registerExtensions(app: acp.AgentApp, sessions: Sessions): void {
  app.onRequest(STEER_METHOD, steerParams, ({ params }) => {
    const session = sessions.get(params.sessionId);
    if (!session.controller.steer(params.text)) {
      const message = "No turn is running to steer: send the text with session/prompt";
      throw requestError(new ReasonixError("session.not_running", message));
    }
    return { queued: true };
  });
  app.onRequest(STATUS_METHOD, sessionRef, ({ params }) => {
    const controller = sessions.get(params.sessionId).controller;
    const totals = controller.totals();
    return {
      sessionId: controller.sessionId,
      provider: controller.providerName,
      model: controller.model,
      effort: controller.effort,
      permissionMode: controller.permissionMode,
      contextWindow: controller.contextWindow,
      runningJobs: controller.runningJobs(),
      lastSeq: controller.lastSeq,
      totals,
    };
  });
}
