/**
 * @module
 * The `reasonix mcp` operations every face can offer: list and inspect the servers that apply here, add
 * or remove one in the user's config.toml (editing only that entry), approve a project server's exact
 * definition, and connect to one to list its tools (refusing an unapproved project server, as every
 * headless start does).
 */
import { resolve } from "node:path";
import { MCP_SERVER_NAME } from "../config/_mcp_servers.ts";
import { appendArrayTable, editTomlFile, removeArrayTable, type TableInput } from "../config/edit_tables.ts";
import { loadConfig, parseToml } from "../config/load.ts";
import { launchDirectory, processEnv } from "../config/paths.ts";
import type { ConfigWarning, McpOAuthDecl, McpTransportKind } from "../config/types.ts";
import { ReasonixError } from "../lib/errors.ts";
import type { McpTool } from "../mcp/client.ts";
import { type McpServerEntry, resolveMcpServers } from "../mcp/config.ts";
import { startRefusal } from "../mcp/gate.ts";
import { parseMcpJson } from "../mcp/mcp_json.ts";
import { revokeMcpServer, trustMcpServer } from "../mcp/trust.ts";
import type { AdminContext } from "./admin.ts";

/** The registry name of a server's tool, as sessions send it (`mcp__<server>__<tool>`). */
export { mcpToolName } from "../mcp/tool_names.ts";

export type { McpServerEntry, McpTool };
export { referencedVariables } from "../mcp/expand.ts";

export interface McpServerInput {
  name: string;
  type: McpTransportKind;
  command?: string;
  args?: string[];
  url?: string;
  env?: Record<string, string>;
  headers?: Record<string, string>;
  /** OAuth of an HTTP or SSE server: pre-registered credentials, callback port, scopes. */
  oauth?: McpOAuthDecl;
}

export async function mcpServers(
  ctx: AdminContext,
): Promise<{ servers: McpServerEntry[]; warnings: ConfigWarning[] }> {
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const list = await resolveMcpServers(config, {
    workspace: ctx.workspace,
    paths: ctx.paths,
    env: processEnv(),
  });
  return { servers: list.servers, warnings: [...config.warnings, ...list.warnings] };
}

export async function mcpServer(ctx: AdminContext, name: string): Promise<McpServerEntry> {
  const { servers } = await mcpServers(ctx);
  const found = servers.find((entry) => entry.decl.name === name);
  if (found) return found;
  const known = servers.map((entry) => entry.decl.name);
  throw new ReasonixError("mcp.unknown_server", `Cannot find MCP server "${name}"`, {
    hint: known.length > 0
      ? `Servers here: ${known.join(", ")}`
      : "No MCP servers are configured: add one with `reasonix mcp add`",
  });
}

/** Appends a `[[plugins]]` entry to the user's config.toml; returns the file. */
export async function mcpAdd(ctx: AdminContext, input: McpServerInput): Promise<string> {
  if (!MCP_SERVER_NAME.test(input.name)) {
    throw new ReasonixError(
      "usage.invalid_name",
      `Cannot add MCP server "${input.name}": use letters, digits, "-" and "_" (not "__")`,
    );
  }
  const file = ctx.paths.globalConfigFile;
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const existing = config.mcpServers.find((decl) => decl.name === input.name && decl.file === file);
  if (existing) {
    throw new ReasonixError(
      "mcp.exists",
      `Cannot add MCP server "${input.name}": ${file} already declares it`,
      {
        hint: `Remove it first with \`reasonix mcp remove ${input.name}\``,
      },
    );
  }
  await editAndCheck(ctx, file, (text) => appendArrayTable(text, "plugins", pluginFields(input)));
  return file;
}

export interface McpImport {
  imported: string[];
  /** Names left out, each with why. */
  skipped: { name: string; reason: string }[];
}

/**
 * Copies the servers of a `.mcp.json`, Claude Code (`~/.claude.json`) or Claude Desktop config (their
 * top-level `mcpServers`) into the user's config.toml as written, `${VAR}` references included. A name the
 * config.toml already declares is left out.
 */
export async function mcpImport(ctx: AdminContext, file: string, only: string[] = []): Promise<McpImport> {
  const source = resolve(launchDirectory(), file);
  let text: string;
  try {
    text = await Deno.readTextFile(source);
  } catch (error) {
    throw new ReasonixError("mcp.import_read", `Cannot read "${source}": ${(error as Error).message}`);
  }
  const { servers } = parseMcpJson(text, source);
  const target = ctx.paths.globalConfigFile;
  const config = await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  const declared = new Set(config.mcpServers.filter((decl) => decl.file === target).map((decl) => decl.name));
  const missing = only.filter((name) => !servers.some((decl) => decl.name === name));
  if (missing.length > 0) {
    throw new ReasonixError("mcp.unknown_server", `Cannot find MCP server "${missing[0]}" in ${source}`);
  }
  const result: McpImport = { imported: [], skipped: [] };
  const chosen = servers.filter((decl) => only.length === 0 || only.includes(decl.name));
  for (const decl of chosen) {
    if (declared.has(decl.name)) {
      result.skipped.push({ name: decl.name, reason: `${target} already declares it` });
    } else result.imported.push(decl.name);
  }
  const adding = chosen.filter((decl) => result.imported.includes(decl.name));
  if (adding.length > 0) {
    await editAndCheck(
      ctx,
      target,
      (current) =>
        adding.reduce((edited, decl) => appendArrayTable(edited, "plugins", pluginFields(decl)), current),
    );
  }
  return result;
}

function pluginFields(input: McpServerInput): Record<string, TableInput> {
  const fields: Record<string, TableInput> = { name: input.name };
  if (input.type === "stdio") {
    fields.command = input.command ?? "";
    if (input.args?.length) fields.args = input.args;
  } else {
    fields.type = input.type;
    fields.url = input.url ?? "";
  }
  if (input.env && Object.keys(input.env).length > 0) fields.env = input.env;
  if (input.headers && Object.keys(input.headers).length > 0) fields.headers = input.headers;
  const oauth = input.oauth ?? {};
  if (oauth.clientId !== undefined) fields.client_id = oauth.clientId;
  if (oauth.clientSecret !== undefined) fields.client_secret = oauth.clientSecret;
  if (oauth.callbackPort !== undefined) fields.callback_port = oauth.callbackPort;
  if (oauth.scopes?.length) fields.scopes = oauth.scopes;
  return fields;
}

/** Removes the user's config.toml entry of `name`; a project file's server is the project's to remove. */
export async function mcpRemove(ctx: AdminContext, name: string): Promise<string> {
  const file = ctx.paths.globalConfigFile;
  let text = "";
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const plugins = parseToml(text, file).plugins;
  const index = Array.isArray(plugins)
    ? plugins.findIndex((item) => (item as { name?: unknown })?.name === name)
    : -1;
  if (index === -1) {
    const entry = await mcpServer(ctx, name);
    throw new ReasonixError(
      "mcp.not_user_server",
      `Cannot remove MCP server "${name}": it is declared by ${entry.decl.file}, not by ${file}`,
      { hint: "A project's servers are removed by editing its file" },
    );
  }
  await editAndCheck(ctx, file, (current) => removeArrayTable(current, "plugins", index));
  return file;
}

export async function mcpTrust(ctx: AdminContext, entry: McpServerEntry): Promise<void> {
  await trustMcpServer(ctx.paths, ctx.workspace, entry.decl);
}

export async function mcpRevoke(ctx: AdminContext, name: string): Promise<boolean> {
  return await revokeMcpServer(ctx.paths, ctx.workspace, name);
}

/** Connects (headless: an unapproved project server is refused), lists the tools and disconnects. */
export async function mcpServerTools(
  ctx: AdminContext,
  name: string,
  options: { trustProjectServers?: boolean } = {},
): Promise<McpTool[]> {
  const entry = await mcpServer(ctx, name);
  const refusal = startRefusal(entry, { workspace: ctx.workspace, ...options });
  if (refusal !== undefined) throw new ReasonixError("mcp.not_started", refusal);
  // The MCP SDK loads here, not with control/mod.ts that every face imports.
  const { McpConnection } = await import("../mcp/client.ts");
  const connection = await McpConnection.connect(entry.spec!, {
    cwd: ctx.workspace,
    baseEnv: processEnv(),
    startupTimeoutMs: entry.startupTimeoutMs,
    callTimeoutMs: entry.callTimeoutMs,
    toolTimeoutMs: entry.toolTimeoutMs,
    oauthDir: ctx.paths.mcpAuthDir,
  });
  try {
    return await connection.listTools();
  } finally {
    await connection.close();
  }
}

/** Writes the edit, then loads the config; a config that no longer loads gets its old text back. */
async function editAndCheck(ctx: AdminContext, file: string, edit: (text: string) => string): Promise<void> {
  let before: string | undefined;
  try {
    before = await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  await editTomlFile(file, edit);
  try {
    await loadConfig({ workspace: ctx.workspace, paths: ctx.paths });
  } catch (error) {
    if (before === undefined) await Deno.remove(file);
    else await Deno.writeTextFile(file, before);
    throw error;
  }
}
