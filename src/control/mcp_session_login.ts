/**
 * @module
 * `/mcp login NAME` where the person sits at this machine (the TUI, line mode): the login of `reasonix
 * mcp login` (control/mcp_auth.ts), started from the session. The command returns as soon as the
 * authorisation URL is printed (or the login failed before that), so the input stays free; the login goes
 * on in the background, and once the browser comes back the server is reconnected with its new tokens.
 * Closing the session ends a login still waiting. Faces without a person at this machine (`reasonix run`,
 * serve, ACP) are told the command to run instead (commands/mcp.ts).
 */
import { errorFields, errorText } from "../lib/errors.ts";
import { t } from "../lib/i18n/mod.ts";
import { escapeControls } from "../lib/terminal_text.ts";
import type { McpManager } from "../mcp/manager.ts";
import { loginEntry } from "./mcp_auth.ts";

/** How long a login started from a session waits for the browser. */
const LOGIN_TIMEOUT_MS = 300_000;

/** The logins under way, per session: a second `/mcp login` of the same server is turned away. */
const underway = new WeakMap<McpManager, Set<string>>();

export interface SessionLoginOptions {
  print(text: string): void;
  /** Default 5 minutes. */
  timeoutMs?: number;
}

/** Starts the login of `name`; resolves once its URL is shown or it ended. */
export async function startSessionLogin(
  manager: McpManager,
  name: string,
  options: SessionLoginOptions,
): Promise<void> {
  const { print } = options;
  const shown = escapeControls(name);
  const entry = manager.entry(name);
  const state = manager.status().find((server) => server.name === name)?.state;
  if (entry === undefined || state?.kind === "refused") {
    return print(
      escapeControls(state?.kind === "refused" ? state.reason : `Cannot find MCP server "${name}"`),
    );
  }
  const { oauthDir, env } = manager.settings;
  const names = underway.get(manager) ?? new Set<string>();
  underway.set(manager, names);
  if (names.has(name)) return print(t("mcp.login_underway", { name: shown }));
  if (oauthDir === undefined) return print(t("mcp.login", { name: shown }));
  names.add(name);
  let urlShown = () => {};
  const opened = new Promise<void>((resolve) => urlShown = resolve);
  const login = loginEntry(entry, oauthDir, {
    // The URL is printed as the login's `open` runs: the command can return after it.
    print: (line) => {
      print(escapeControls(line));
      urlShown();
    },
    env,
    signal: manager.closing,
    timeoutMs: options.timeoutMs ?? LOGIN_TIMEOUT_MS,
  });
  const finished = login
    .then(async () => {
      await manager.restart(name);
      print(t("mcp.login_done", { name: shown }));
    })
    .catch((error: unknown) => {
      if (!manager.closing.aborted) print(errorText(errorFields(error)).trimEnd());
    })
    .finally(() => names.delete(name));
  await Promise.race([opened, finished]);
}
