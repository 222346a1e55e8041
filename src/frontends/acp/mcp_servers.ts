/**
 * @module
 * The MCP servers an editor sends with `session/new`, `session/load` or `session/resume`, as the session's
 * declarations: stdio `{name, command, args, env[]}`, or `{type: "http" | "sse", name, url, headers[]}`.
 * They join the configured servers for that session only; one named like a configured server replaces it.
 */
import type * as acp from "@agentclientprotocol/sdk";
import type { McpServerDecl } from "../../config/types.ts";
import { ReasonixError } from "../../lib/errors.ts";

export function editorServers(servers: readonly acp.McpServer[] | undefined): McpServerDecl[] {
  const decls = (servers ?? []).map(declOf);
  const names = new Set<string>();
  for (const decl of decls) {
    if (names.has(decl.name)) {
      throw new ReasonixError("usage.mcp_server", `Cannot start MCP server "${decl.name}": named twice`);
    }
    names.add(decl.name);
  }
  return decls;
}

function declOf(server: acp.McpServer): McpServerDecl {
  if (typeof server.name !== "string" || server.name.trim() === "") {
    throw new ReasonixError("usage.mcp_server", "Cannot start an MCP server without a name");
  }
  const base = {
    name: server.name,
    command: "",
    args: [],
    env: {},
    url: "",
    headers: {},
    toolTimeoutSeconds: {},
    autoStart: true,
    source: "editor" as const,
    file: "the editor",
    at: {},
  };
  if ("type" in server && (server.type === "http" || server.type === "sse")) {
    return { ...base, type: server.type, url: server.url, headers: pairs(server.headers) };
  }
  const stdio = server as acp.McpServerStdio;
  return {
    ...base,
    type: "stdio",
    command: stdio.command,
    args: [...stdio.args ?? []],
    env: pairs(stdio.env),
  };
}

function pairs(list: readonly { name: string; value: string }[] | undefined): Record<string, string> {
  return Object.fromEntries((list ?? []).map(({ name, value }) => [name, value]));
}
