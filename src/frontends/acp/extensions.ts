/**
 * @module
 * Reasonix's own ACP methods, all under `_reasonix.io/` and listed in
 * `agentCapabilities._meta["reasonix.io"].methods`.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { Sessions } from "./agent.ts";

export const STATUS_METHOD = "_reasonix.io/session/status";
export const VENDOR_METHODS = [STATUS_METHOD] as const;

interface SessionRef {
  sessionId: string;
}

function sessionRef(params: unknown): SessionRef {
  const id = (params as { sessionId?: unknown } | null)?.sessionId;
  if (typeof id !== "string") throw new TypeError("Expected params.sessionId, a string");
  return { sessionId: id };
}

export function registerExtensions(app: acp.AgentApp, sessions: Sessions): void {
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
