/**
 * @module
 * The slash commands an editor offers (`available_commands_update`): the Controller's registry, less
 * those that act on a terminal face or switch the session under the editor.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { AcpSession } from "./session.ts";

const NOT_IN_EDITORS = new Set(["quit", "theme", "language", "verbose", "copy", "new", "clear", "resume"]);

export function availableCommands(session: AcpSession): acp.AvailableCommand[] {
  return session.controller.commands.list().filter((command) => !NOT_IN_EDITORS.has(command.name)).map((
    command,
  ) => {
    const hint = command.usage.replace(/^\/\S+\s*/, "");
    return { name: command.name, description: command.summary, ...(hint ? { input: { hint } } : {}) };
  });
}
