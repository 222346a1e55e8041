/**
 * @module
 * Reads the `[[plugins]]` entries of one checked TOML file (the Go Reasonix's name for MCP servers) into
 * declarations that keep where each field is written, so a later `${VAR}` problem names file:line:col.
 */
import type { KeyPath } from "./_locate.ts";
import { type CheckContext, configError } from "./schema.ts";
import type { McpOAuthDecl, McpServerDecl, McpSource, McpTransportKind } from "./types.ts";

type Raw = Record<string, unknown>;

/** Letters, digits, `-` and `_`, without `__`: tool names are `mcp__<server>__<tool>`. */
export const MCP_SERVER_NAME = /^(?!.*__)[A-Za-z0-9][A-Za-z0-9_-]*$/;

export const MCP_SERVER_FIELDS = [
  "entry",
  "name",
  "type",
  "command",
  "args",
  "env",
  "url",
  "headers",
  "client_id",
  "client_secret",
  "callback_port",
  "scopes",
  "client_metadata_url",
] as const;

export function tomlMcpServers(
  value: unknown,
  context: CheckContext & { source: McpSource },
): McpServerDecl[] {
  if (!Array.isArray(value)) return [];
  const seen = new Map<string, number>();
  return value.map((item: Raw, index) => {
    const at = (key?: string): KeyPath => key === undefined ? ["plugins", index] : ["plugins", index, key];
    const server = mcpServerDecl(item, {
      label: `plugins[${index}]`,
      file: context.file,
      source: context.source,
      position: (key) => context.locator.keyPosition(at(key)),
      fail: (key, detail) => configError(context, at(key), detail),
    });
    const earlier = seen.get(server.name);
    if (earlier !== undefined) {
      throw configError(
        context,
        at("name"),
        `Cannot read "plugins[${index}].name": MCP server "${server.name}" is already declared as plugins[${earlier}]`,
      );
    }
    seen.set(server.name, index);
    return server;
  });
}

/** What reading one declaration needs from its file format (TOML here, `.mcp.json` in src/mcp). */
export interface DeclReader {
  /** `plugins[2]`, `mcpServers.github`: how messages name the entry. */
  label: string;
  file: string;
  source: McpSource;
  /** Position of a field's key; no key: the entry itself. */
  position: (key?: string) => { line: number; column: number };
  fail: (key: string | undefined, detail: string) => Error;
}

/** Builds a declaration from an entry whose field types were already checked. */
export function mcpServerDecl(item: Raw, reader: DeclReader, fixedName?: string): McpServerDecl {
  const name = fixedName ?? (typeof item.name === "string" ? item.name.trim() : "");
  if (name === "") throw reader.fail(undefined, `Cannot read "${reader.label}": "name" is required`);
  if (!MCP_SERVER_NAME.test(name)) {
    throw reader.fail(
      fixedName === undefined ? "name" : undefined,
      `Cannot read "${reader.label}": the MCP server name "${name}" may hold only letters, digits, "-" ` +
        `and "_" (not "__")`,
    );
  }
  const command = typeof item.command === "string" ? item.command.trim() : "";
  const url = typeof item.url === "string" ? item.url.trim() : "";
  const type = (item.type as McpTransportKind | undefined) ??
    (url !== "" && command === "" ? "http" : "stdio");
  if (type === "stdio" && command === "") {
    throw reader.fail(undefined, `Cannot read "${reader.label}": a stdio server needs "command"`);
  }
  if (type !== "stdio" && url === "") {
    throw reader.fail(undefined, `Cannot read "${reader.label}": an ${type} server needs "url"`);
  }
  const at: McpServerDecl["at"] = {};
  for (const field of MCP_SERVER_FIELDS) {
    at[field] = reader.position(field === "entry" ? undefined : field);
  }
  return {
    name,
    type,
    command,
    args: (item.args as string[] | undefined) ?? [],
    env: { ...(item.env as Record<string, string> | undefined) },
    url,
    headers: { ...(item.headers as Record<string, string> | undefined) },
    ...optional("startupTimeoutSeconds", item.startup_timeout_seconds),
    ...optional("callTimeoutSeconds", item.call_timeout_seconds),
    toolTimeoutSeconds: { ...(item.tool_timeout_seconds as Record<string, number> | undefined) },
    autoStart: item.auto_start !== false,
    oauth: oauthDecl(item),
    source: reader.source,
    file: reader.file,
    at,
  };
}

function oauthDecl(item: Raw): McpOAuthDecl {
  const oauth: McpOAuthDecl = {};
  if (typeof item.client_id === "string") oauth.clientId = item.client_id;
  if (typeof item.client_secret === "string") oauth.clientSecret = item.client_secret;
  if (typeof item.callback_port === "number") oauth.callbackPort = item.callback_port;
  if (Array.isArray(item.scopes)) oauth.scopes = item.scopes as string[];
  if (typeof item.client_metadata_url === "string") oauth.clientMetadataUrl = item.client_metadata_url;
  return oauth;
}

function optional<K extends string>(key: K, value: unknown): { [P in K]?: number } {
  return typeof value === "number" ? { [key]: value } as { [P in K]: number } : {};
}
