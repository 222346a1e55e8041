/**
 * @module
 * The client's `terminal/*`, when its `initialize` offers `terminal`, as the sandbox's editor terminal
 * (src/sandbox/editor_terminal.ts), which uses it only where commands run unsandboxed anyway. The
 * terminal is embedded in the running tool call's card, so the editor shows the command live.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { EditorTerminal } from "../../control/mod.ts";

/** The session a terminal belongs to, bound once it is open. */
export interface TerminalHost {
  readonly id: string;
  /** Puts the terminal in the tool call's card (and keeps it there when the call ends). */
  showTerminal(callId: string, terminalId: string): Promise<void>;
}

export interface ClientTerminalAccess {
  /** What the session's sandbox may use; undefined when the client offers no terminal. */
  readonly terminal: EditorTerminal | undefined;
  bind(host: TerminalHost): void;
}

export function clientTerminal(
  client: acp.AgentContext,
  capabilities: acp.ClientCapabilities | undefined,
): ClientTerminalAccess {
  if (capabilities?.terminal !== true) return { terminal: undefined, bind: () => {} };
  let host: TerminalHost | null = null;
  const terminal: EditorTerminal = {
    async create(request) {
      if (host === null) throw new Error("the session is not open yet");
      const handle = await client.createTerminal({
        sessionId: host.id,
        command: request.command,
        args: request.args,
        env: Object.entries(request.env).map(([name, value]) => ({ name, value })),
        cwd: request.cwd,
        outputByteLimit: request.outputByteLimit,
      });
      if (request.callId) await host.showTerminal(request.callId, handle.id);
      return {
        waitForExit: () => handle.waitForExit(),
        output: () => handle.currentOutput(),
        kill: async () => void await handle.kill(),
        release: async () => void await handle.release(),
      };
    },
  };
  return { terminal, bind: (bound) => void (host = bound) };
}
