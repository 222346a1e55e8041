/**
 * @module
 * `reasonix acp` (and `reasonix --acp`): Reasonix as an Agent Client Protocol agent on stdio, for editors
 * such as Zed. stdout carries protocol messages only; diagnostics go to stderr. See docs/ACP.md.
 */
import * as acp from "@agentclientprotocol/sdk";
import { stopError } from "../../control/mod.ts";
import { acpAgent, type AcpOptions, Sessions } from "./agent.ts";
import { guardStdout } from "./stdio.ts";
import { ResponseWatch } from "./response_watch.ts";
import { onStopSignals } from "../../sandbox/stop_signals.ts";

/**
 * Serves one connection on stdin/stdout until the editor closes it, then closes every session. Returns
 * the error code of the stop signal that ended it (main.ts exits with its status), null when stdin closed.
 */
export async function runAcp(options: AcpOptions): Promise<string | null> {
  const io = guardStdout();
  const sessions = new Sessions();
  const watch = new ResponseWatch();
  const connection = acpAgent(options, sessions, watch).connect(
    watch.wrap(acp.ndJsonStream(io.output, io.input)),
  );
  let stopped: string | null = null;
  const removeSignals = onStopSignals((signal) => {
    stopped = stopError(signal).code;
    connection.close();
  });
  try {
    await connection.closed;
  } finally {
    await sessions.closeAll();
    removeSignals();
  }
  return stopped;
}

export { acpAgent, type AcpOptions, initializeResponse, Sessions } from "./agent.ts";
export { ResponseWatch } from "./response_watch.ts";
