/**
 * @module
 * The client's `fs/read_text_file` and `fs/write_text_file`, when its `initialize` offers them, as the
 * tools' editor port (src/tool/editor_files.ts). The tools keep every host check; this only carries
 * the call. The session id is known once the Controller has booted, so it is bound then.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { EditorFiles } from "../../control/mod.ts";

export interface ClientFileAccess {
  /** What the session's tools use; undefined when the client offers neither method. */
  readonly files: EditorFiles | undefined;
  /** Names the session in every later request. */
  bind(sessionId: string): void;
}

export function clientFiles(
  client: acp.AgentContext,
  capabilities: acp.ClientCapabilities | undefined,
): ClientFileAccess {
  let sessionId: string | null = null;
  const session = (): string => {
    if (sessionId === null) throw new Error("the session is not open yet");
    return sessionId;
  };
  const fs = capabilities?.fs;
  const files: EditorFiles = {
    ...fs?.readTextFile === true
      ? {
        readText: async (path: string) =>
          (await client.request(acp.methods.client.fs.readTextFile, { sessionId: session(), path })).content,
      }
      : {},
    ...fs?.writeTextFile === true
      ? {
        writeText: async (path: string, content: string) => {
          await client.request(acp.methods.client.fs.writeTextFile, { sessionId: session(), path, content });
        },
      }
      : {},
  };
  return {
    files: files.readText || files.writeText ? files : undefined,
    bind: (id) => void (sessionId = id),
  };
}
