/**
 * @module
 * Closes a failed or interrupted turn so the stored conversation stays valid for the next request:
 * an explicit reply (and results for unanswered tool calls), then a `turn_failed` record.
 */
import type { SessionLog } from "../session/log.ts";
import { closingMessages } from "../session/repair.ts";
import { explainError } from "./explain.ts";
import type { TurnOutcome } from "./turn_outcome.ts";

export { StopRequest, type StopSignal } from "./explain.ts";

export async function failTurn(
  log: SessionLog,
  error: unknown,
  options: { abort: AbortSignal; at: string },
): Promise<TurnOutcome> {
  const { aborted, reason } = options.abort;
  const info = explainError(error, { interrupted: aborted, reason });
  try {
    const closing = closingMessages(log.messages(), {
      reason: info.message,
      result: `Not run: ${info.message}`,
    });
    for (const message of closing) await log.append({ type: "message", message });
    await log.append({ type: "event", name: "turn_failed", data: info, at: options.at });
  } catch {
    // The session on disk holds every message up to the fault; nothing more can be saved.
  }
  return { subtype: "error_during_execution", result: info.message, error: info };
}
