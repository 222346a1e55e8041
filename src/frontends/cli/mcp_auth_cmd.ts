/**
 * @module
 * `reasonix mcp login|logout <name>`: renders control/mcp_auth.ts. The authorisation URL comes from a
 * server, so it is printed with its terminal controls made visible.
 */
import { adminContext, mcpLogin, mcpLogout } from "../../control/mod.ts";
import { escapeControls } from "../../lib/terminal_text.ts";

export async function mcpLoginCmd(
  name: string,
  opts: { trustProjectMcp?: boolean; dir?: string },
): Promise<void> {
  await mcpLogin(await adminContext(opts.dir), name, {
    print: (line) => console.error(escapeControls(line)),
    ...(opts.trustProjectMcp ? { trustProjectServers: true } : {}),
  });
  console.log(escapeControls(`Logged in to MCP server "${name}"`));
}

export async function mcpLogoutCmd(name: string, opts: { dir?: string }): Promise<void> {
  const { removed, revoked } = await mcpLogout(await adminContext(opts.dir), name);
  if (!removed) return console.log(escapeControls(`Not logged in to MCP server "${name}"`));
  const how = revoked ? "revoked its tokens and forgot them" : "forgot its tokens";
  console.log(escapeControls(`Logged out of MCP server "${name}": ${how}`));
}
