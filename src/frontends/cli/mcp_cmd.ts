/**
 * @module
 * `reasonix mcp list|get|add|remove|trust|tools`: renders control/mcp_admin.ts. Every name, command and
 * value shown comes from a file a repository may control, so terminal controls are made visible.
 */
import {
  adminContext,
  mcpAdd,
  mcpImport,
  mcpLoggedIn,
  mcpRemove,
  mcpRevoke,
  mcpServer,
  type McpServerEntry,
  mcpServers,
  mcpServerTools,
  mcpToolName,
  mcpTrust,
  referencedVariables,
} from "../../control/mod.ts";
import type { McpOAuthDecl } from "../../config/types.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { redactSecrets } from "../../lib/redact.ts";
import { escapeControls, terminalSafeJson } from "../../lib/terminal_text.ts";

export interface McpIo {
  interactive: boolean;
  confirm: (message: string) => Promise<boolean>;
}

const SECRET_KEY = /KEY|TOKEN|SECRET|PASSW|AUTH|COOKIE|CREDENTIAL|PRIVATE|SESSION/i;

interface DirOption {
  dir?: string;
}

export async function mcpListCmd(opts: DirOption & { json?: boolean }): Promise<void> {
  const { servers, warnings } = await mcpServers(await adminContext(opts.dir));
  if (opts.json) return printJson(servers.map(jsonOf));
  for (const warning of warnings) {
    console.error(escapeControls(`${warning.file}:${warning.line}:${warning.column}: ${warning.message}`));
  }
  if (servers.length === 0) {
    console.log("No MCP servers: add one with `reasonix mcp add NAME -- COMMAND [ARGS...]`");
    return;
  }
  for (const entry of servers) {
    console.log(
      escapeControls(`${entry.decl.name}: ${target(entry)} (${entry.decl.type}) - ${status(entry)}`),
    );
  }
}

export async function mcpGetCmd(name: string, opts: DirOption & { json?: boolean }): Promise<void> {
  const ctx = await adminContext(opts.dir);
  const entry = await mcpServer(ctx, name);
  const loggedIn = await mcpLoggedIn(ctx, entry);
  if (opts.json) {
    return printJson({ ...jsonOf(entry), ...(loggedIn !== undefined ? { logged_in: loggedIn } : {}) });
  }
  console.log(escapeControls(describe(entry)));
  if (loggedIn !== undefined) {
    console.log(
      escapeControls(
        `  oauth: ${loggedIn ? "logged in" : `not logged in (\`reasonix mcp login ${name}\` if it asks)`}`,
      ),
    );
  }
}

export async function mcpAddCmd(
  name: string,
  command: string[],
  opts: Record<string, unknown>,
): Promise<void> {
  const http = opts.http as string | undefined;
  const sse = opts.sse as string | undefined;
  if (http !== undefined && sse !== undefined) {
    throw new ReasonixError("usage.conflicting_options", "Cannot combine --http with --sse");
  }
  const url = http ?? sse;
  if (url !== undefined && command.length > 0) {
    throw new ReasonixError(
      "usage.conflicting_options",
      `Cannot give both a URL and a command for "${name}"`,
    );
  }
  if (url === undefined && command.length === 0) {
    throw new ReasonixError("usage.missing_command", `Cannot add "${name}": give a command or a URL`, {
      hint: "reasonix mcp add NAME -- COMMAND [ARGS...]   or   reasonix mcp add NAME --http URL",
    });
  }
  if (url !== undefined && !/^https?:\/\/[^/]/.test(url)) {
    throw new ReasonixError(
      "usage.invalid_url",
      `Cannot add "${name}": expected an http(s) URL, got "${url}"`,
    );
  }
  const file = await mcpAdd(await adminContext(opts.dir as string | undefined), {
    name,
    type: sse !== undefined ? "sse" : http !== undefined ? "http" : "stdio",
    ...(url !== undefined ? { url } : { command: command[0]!, args: command.slice(1) }),
    env: pairs("--env", opts.env as string[]),
    headers: pairs("--header", opts.header as string[]),
    oauth: oauthOptions(name, url, opts),
  });
  console.log(escapeControls(`Added MCP server "${name}" to ${file}`));
}

export async function mcpImportCmd(source: string, opts: DirOption & { only?: string[] }): Promise<void> {
  const result = await mcpImport(await adminContext(opts.dir), source, opts.only ?? []);
  for (const name of result.imported) console.log(escapeControls(`Imported MCP server "${name}"`));
  for (const { name, reason } of result.skipped) console.log(escapeControls(`Skipped "${name}": ${reason}`));
  if (result.imported.length === 0 && result.skipped.length === 0) console.log("No MCP servers to import");
}

export async function mcpRemoveCmd(name: string, opts: DirOption): Promise<void> {
  const file = await mcpRemove(await adminContext(opts.dir), name);
  console.log(escapeControls(`Removed MCP server "${name}" from ${file}`));
}

export async function mcpTrustCmd(
  name: string,
  opts: DirOption & { revoke?: boolean; yes?: boolean },
  io: McpIo,
): Promise<void> {
  const ctx = await adminContext(opts.dir);
  if (opts.revoke) {
    const revoked = await mcpRevoke(ctx, name);
    console.log(
      escapeControls(revoked ? `Revoked: MCP server "${name}" needs approval again` : "Nothing to revoke"),
    );
    return;
  }
  const entry = await mcpServer(ctx, name);
  console.log(escapeControls(describe(entry)));
  if (entry.trust === "user") return console.log("It is declared by your own config: it needs no approval");
  if (entry.trust === "trusted") return;
  if (!opts.yes) {
    if (!io.interactive) {
      throw new ReasonixError("usage.confirm", "Cannot ask for confirmation: stdin is not a terminal", {
        hint: `Run \`reasonix mcp trust ${name} --yes\` to approve this exact definition without asking`,
      });
    }
    if (!await io.confirm(`Let MCP server "${name}" run this command in ${ctx.workspace}?`)) {
      console.log("Not trusted");
      return;
    }
  }
  await mcpTrust(ctx, entry);
  console.log(
    escapeControls(
      `Trusted: MCP server "${name}" may start in ${ctx.workspace} until its definition changes`,
    ),
  );
}

export async function mcpToolsCmd(
  name: string,
  opts: DirOption & { json?: boolean; trustProjectMcp?: boolean },
): Promise<void> {
  const tools = await mcpServerTools(await adminContext(opts.dir), name, {
    trustProjectServers: Boolean(opts.trustProjectMcp),
  });
  if (opts.json) {
    return printJson(tools.map((tool) => ({
      name: tool.name,
      description: tool.description ?? "",
      read_only: tool.annotations?.readOnlyHint === true,
      input_schema: tool.inputSchema,
    })));
  }
  for (const tool of tools) {
    const line = (tool.description ?? "").split("\n")[0]!.slice(0, 100);
    console.log(escapeControls(`${mcpToolName(name, tool.name)}${line ? `  ${line}` : ""}`));
  }
}

function oauthOptions(name: string, url: string | undefined, opts: Record<string, unknown>): McpOAuthDecl {
  const oauth: McpOAuthDecl = {};
  if (typeof opts.clientId === "string") oauth.clientId = opts.clientId;
  if (typeof opts.clientSecret === "string") oauth.clientSecret = opts.clientSecret;
  if (typeof opts.callbackPort === "string") {
    const port = Number(opts.callbackPort);
    if (!Number.isInteger(port) || port < 1 || port > 65535) {
      throw new ReasonixError(
        "usage.invalid_option",
        `Cannot read "--callback-port ${opts.callbackPort}": expected a port 1-65535`,
      );
    }
    oauth.callbackPort = port;
  }
  const scopes = ((opts.scope as string[] | undefined) ?? []).flatMap((scope) => scope.split(/\s+/)).filter(
    Boolean,
  );
  if (scopes.length > 0) oauth.scopes = scopes;
  if (Object.keys(oauth).length > 0 && url === undefined) {
    throw new ReasonixError(
      "usage.conflicting_options",
      `Cannot give OAuth options for "${name}": it is a stdio server`,
    );
  }
  return oauth;
}

function pairs(flag: string, values: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const equals = value.indexOf("=");
    if (equals <= 0) {
      throw new ReasonixError("usage.invalid_option", `Cannot read "${flag} ${value}": expected NAME=VALUE`);
    }
    out[value.slice(0, equals).trim()] = value.slice(equals + 1);
  }
  return out;
}

function target(entry: McpServerEntry): string {
  const { decl } = entry;
  return decl.type === "stdio" ? [decl.command, ...decl.args].join(" ") : decl.url;
}

function status(entry: McpServerEntry): string {
  if (entry.problem !== undefined) return `cannot start: ${entry.problem}`;
  const where = `${entry.decl.file}:${entry.decl.at.entry?.line ?? 1}`;
  const name = entry.decl.name;
  switch (entry.trust) {
    case "user":
      return where;
    case "trusted":
      return `${where}, trusted here`;
    case "changed":
      return `${where}, changed since you trusted it: run \`reasonix mcp trust ${name}\``;
    case "untrusted":
      return `${where}, not trusted: run \`reasonix mcp trust ${name}\``;
  }
}

/** The definition as written; a value that may be a credential is shown only when it is a `${VAR}`. */
function describe(entry: McpServerEntry): string {
  const { decl } = entry;
  const lines = [`${decl.name} (${decl.type})`, `  declared in ${decl.file}:${decl.at.entry?.line ?? 1}`];
  if (decl.type === "stdio") lines.push(`  command: ${JSON.stringify([decl.command, ...decl.args])}`);
  else lines.push(`  url: ${decl.url}`);
  for (const [title, record] of [["env", decl.env], ["headers", decl.headers]] as const) {
    for (const [key, value] of Object.entries(record)) lines.push(`  ${title} ${key}=${shown(key, value)}`);
  }
  const oauth = decl.oauth ?? {};
  if (oauth.clientId !== undefined) lines.push(`  client_id: ${oauth.clientId}`);
  if (oauth.clientSecret !== undefined) lines.push(`  client_secret: ${shown("SECRET", oauth.clientSecret)}`);
  if (oauth.callbackPort !== undefined) lines.push(`  callback_port: ${oauth.callbackPort}`);
  if (oauth.scopes?.length) lines.push(`  scopes: ${oauth.scopes.join(" ")}`);
  const variables = referencedVariables(decl);
  if (variables.length > 0) lines.push(`  reads from the environment: ${variables.join(", ")}`);
  lines.push(`  timeouts: start ${entry.startupTimeoutMs / 1000} s, call ${entry.callTimeoutMs / 1000} s`);
  if (!decl.autoStart) lines.push("  auto_start: false");
  lines.push(`  status: ${status(entry)}`);
  return lines.join("\n");
}

/**
 * A value as written, unless it may be a literal credential: a `${VAR}` reference is shown (it says what
 * would be sent), a value named like a credential is not.
 */
function shown(key: string, value: string): string {
  const redacted = redactSecrets(value);
  if (redacted !== value || /\$\{[A-Za-z_]/.test(value)) return redacted;
  return SECRET_KEY.test(key) ? "[redacted]" : value;
}

function jsonOf(entry: McpServerEntry): Record<string, unknown> {
  const { decl } = entry;
  return {
    name: decl.name,
    type: decl.type,
    source: decl.source,
    file: decl.file,
    line: decl.at.entry?.line ?? 1,
    command: decl.command,
    args: decl.args,
    url: decl.url,
    env: Object.keys(decl.env),
    headers: Object.keys(decl.headers),
    ...(decl.oauth?.clientId !== undefined ? { client_id: decl.oauth.clientId } : {}),
    ...(decl.oauth?.callbackPort !== undefined ? { callback_port: decl.oauth.callbackPort } : {}),
    ...(decl.oauth?.scopes?.length ? { scopes: decl.oauth.scopes } : {}),
    auto_start: decl.autoStart,
    startup_timeout_seconds: entry.startupTimeoutMs / 1000,
    call_timeout_seconds: entry.callTimeoutMs / 1000,
    trust: entry.trust,
    ...(entry.problem !== undefined ? { problem: entry.problem } : {}),
  };
}

function printJson(value: unknown): void {
  console.log(terminalSafeJson(JSON.stringify(value)));
}
