/**
 * @module
 * The MCP servers an editor sends with `session/new`, `session/load` or `session/resume`, as the session's
 * declarations: stdio `{name, command, args, env[]}`, or `{type: "http" | "sse", name, url, headers[]}`.
 * They join the configured servers for that session only; one named like a configured server replaces it.
 * Two with one name make the request fail: which one the person meant cannot be told.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { McpServerDecl } from "../../config/types.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { editorDecl } from "../../mcp/editor_servers.ts";

export function editorServers(servers: readonly acp.McpServer[] | undefined): McpServerDecl[] {
  const decls = (servers ?? []).map(declOf);
  const names = new Set<string>();
  for (const decl of decls) {
    if (names.has(decl.name)) {
      const message = `Cannot start the editor's MCP servers: two are named "${decl.name}"`;
      throw new ReasonixError("usage.mcp_server", message, { hint: "give each server its own name" });
    }
    names.add(decl.name);
  }
  return decls;
}

/**
 * The editor's name when a tool name can carry it (letters, digits, `-`, `_`, no `__`: tools are
 * `mcp__<server>__<tool>`); otherwise each run of other characters becomes `-` ("My Server" → "My-Server").
 */
export function serverName(given: string): string {
  const name = given.trim().replace(/[^A-Za-z0-9_-]+/g, "-").replace(/_{2,}/g, "_").replace(/^[-_]+/, "");
  return name === "" ? "editor" : name;
}

function declOf(server: acp.McpServer): McpServerDecl {
  const name = serverName(typeof server.name === "string" ? server.name : "");
  if ("type" in server && (server.type === "http" || server.type === "sse")) {
    return editorDecl({ name, type: server.type, url: server.url, headers: pairs(server.headers) });
  }
  const stdio = server as acp.McpServerStdio;
  return editorDecl({
    name,
    type: "stdio",
    command: stdio.command,
    args: [...stdio.args ?? []],
    env: pairs(stdio.env),
  });
}

function pairs(list: readonly { name: string; value: string }[] | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map(({ name, value }) => [name, value]));
}
