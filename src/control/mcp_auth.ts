/**
 * @module
 * `reasonix mcp login|logout <server>`, for every face that can show a URL. A login prints the
 * authorisation URL and opens it with `$BROWSER` (or the system's opener), then waits for the browser to
 * come back to the loopback callback. A session never starts a login by itself: it reports "needs auth"
 * (src/mcp/oauth_provider.ts); `/mcp login NAME` in the TUI runs one (src/control/mcp_session_login.ts).
 */
import { processEnv } from "../config/paths.ts";
import { ReasonixError } from "../lib/errors.ts";
import { startRefusal } from "../mcp/gate.ts";
import type { McpServerEntry } from "../mcp/config.ts";
import { type OpenedBrowser, openInBrowser } from "../sandbox/host_browser.ts";
import type { AdminContext } from "./admin.ts";
import { mcpServer } from "./mcp_admin.ts";

export interface McpLoginIo {
  /** Shows one line to the person logging in (the URL among them). */
  print(line: string): void;
  /** Default 5 minutes. */
  timeoutMs?: number;
  trustProjectServers?: boolean;
  /** Where `$BROWSER` is read (default: the process environment). */
  env?: Record<string, string | undefined>;
  /** Ends the wait for the browser. */
  signal?: AbortSignal;
}

/** How long a login waits for the opener it started to exit before returning. */
const OPENER_GRACE_MS = 3_000;

export async function mcpLogin(ctx: AdminContext, name: string, io: McpLoginIo): Promise<void> {
  const entry = await mcpServer(ctx, name);
  const refusal = startRefusal(entry, {
    workspace: ctx.workspace,
    ...(io.trustProjectServers ? { trustProjectServers: true } : {}),
  });
  if (refusal !== undefined) throw new ReasonixError("mcp.not_started", refusal);
  await loginEntry(entry, ctx.paths.mcpAuthDir, io);
}

/**
 * Logs in to a server already resolved (and allowed to start): prints the URL, opens it with `$BROWSER`
 * of `io.env` (default: the process's) or the system's opener, and waits for the callback.
 */
export async function loginEntry(entry: McpServerEntry, dir: string, io: McpLoginIo): Promise<void> {
  const name = entry.decl.name;
  if (entry.spec === undefined) throw new ReasonixError("mcp.not_started", entry.problem ?? "");
  const openers: OpenedBrowser[] = [];
  const { loginMcpServer } = await oauthLogin();
  try {
    await loginMcpServer(entry.spec, {
      dir,
      timeoutMs: io.timeoutMs ?? 300_000,
      connectTimeoutMs: entry.startupTimeoutMs,
      ...(io.signal ? { signal: io.signal } : {}),
      open(url) {
        io.print(`Open this URL to authorise Reasonix for MCP server "${name}":`);
        io.print(url.href);
        const opened = openInBrowser(url.href, io.env ?? processEnv());
        if (opened) openers.push(opened);
      },
    });
  } finally {
    await settle(openers.map((opener) => opener.exited), OPENER_GRACE_MS);
  }
}

export async function mcpLogout(
  ctx: AdminContext,
  name: string,
): Promise<{ removed: boolean; revoked: boolean }> {
  const entry = await mcpServer(ctx, name);
  if (entry.spec === undefined) throw new ReasonixError("mcp.not_started", entry.problem ?? "");
  const { logoutMcpServer } = await oauthLogin();
  return await logoutMcpServer(entry.spec, ctx.paths.mcpAuthDir);
}

/** Whether OAuth tokens are stored for a remote server (undefined: stdio, or it cannot be expanded). */
export async function mcpLoggedIn(ctx: AdminContext, entry: McpServerEntry): Promise<boolean | undefined> {
  if (entry.spec === undefined) return undefined;
  const { oauthLoggedIn } = await oauthLogin();
  return await oauthLoggedIn(entry.spec, ctx.paths.mcpAuthDir);
}

/** The OAuth client and the MCP SDK under it load for a login, not with every session. */
function oauthLogin() {
  return import("../mcp/oauth_login.ts");
}

async function settle(promises: Promise<void>[], ms: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
  await Promise.race([Promise.all(promises), limit]);
  clearTimeout(timer);
}
