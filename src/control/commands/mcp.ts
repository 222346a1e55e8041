/**
 * @module
 * `/mcp`: the session's MCP servers as a table (status, tool / prompt / resource counts, why one failed
 * or waits), and `/mcp reconnect|trust|login <name>` (a login runs only in a face at this machine). Every
 * name and reason is shown with control characters made visible: a project file or a server chose them.
 */
import { displayWidth } from "../../lib/text_table.ts";
import { errorFields, errorText } from "../../lib/errors.ts";
import { t } from "../../lib/i18n/mod.ts";
import { escapeControls } from "../../lib/terminal_text.ts";
import { withinTime } from "../../lib/within_time.ts";
import type { McpManager, McpServerState } from "../../mcp/manager.ts";
import type { McpServerEntry } from "../../mcp/config.ts";
import { trustMcpServerNow } from "../mcp_boot.ts";
import { startSessionLogin } from "../mcp_session_login.ts";
import type { CommandContext, SlashCommand } from "./registry.ts";

const ACTIONS = ["reconnect", "trust", "login"] as const;
const COUNT_TIMEOUT_MS = 5_000;

export const mcpCommand: SlashCommand = {
  name: "mcp",
  aliases: [],
  get summary() {
    return t("mcp.summary");
  },
  usage: "/mcp [reconnect|trust|login <name>]",
  argumentChoices: ACTIONS,
  async run(ctx, args) {
    const manager = ctx.host.mcp;
    if (manager === undefined || manager.status().length === 0) return ctx.print(t("mcp.none"));
    const [action, name] = args.split(/\s+/).filter(Boolean);
    if (action === undefined) return ctx.print(await serverTable(manager));
    if (!ACTIONS.includes(action as typeof ACTIONS[number]) || name === undefined) {
      return ctx.print(t("mcp.usage"));
    }
    if (manager.entry(name) === undefined) {
      return ctx.print(t("mcp.unknown", { name: escapeControls(name) }));
    }
    await act(ctx, manager, action as typeof ACTIONS[number], name);
  },
};

async function act(ctx: CommandContext, manager: McpManager, action: typeof ACTIONS[number], name: string) {
  const shown = escapeControls(name);
  try {
    if (action === "login") {
      // Only where the person sits at this machine: the browser and the loopback callback are here.
      if (!ctx.localBrowser) return ctx.print(t("mcp.login", { name: shown }));
      return await startSessionLogin(manager, name, { print: ctx.print });
    }
    if (action === "reconnect") {
      await manager.restart(name);
      return ctx.print(t("mcp.reconnected", { name: shown }));
    }
    const entry = manager.entry(name)!;
    if (entry.trust === "user") return ctx.print(t("mcp.trust_not_needed", { name: shown }));
    await trustMcpServerNow(manager, name);
    const state = manager.status().find((server) => server.name === name)?.state;
    if (state?.kind === "refused") return ctx.print(escapeControls(state.reason));
    ctx.print(t("mcp.trusted", { name: shown, definition: definitionOf(entry) }));
  } catch (error) {
    ctx.print(errorText(errorFields(error)).trimEnd());
  }
}

/** One row per server, then the reason of each server that failed or waits. */
export async function serverTable(manager: McpManager): Promise<string> {
  const servers = manager.status();
  const rows = await Promise.all(servers.map(async ({ name, state }) => {
    const counts = await countsOf(manager, name);
    return [escapeControls(name), statusLabel(state), ...counts];
  }));
  const head = [
    t("mcp.col_server"),
    t("mcp.col_status"),
    t("mcp.col_tools"),
    t("mcp.col_prompts"),
    t("mcp.col_resources"),
  ];
  const table = [head, ...rows];
  const widths = head.map((_, column) => Math.max(...table.map((row) => displayWidth(row[column]!))));
  const lines = table.map((row) =>
    row.map((cell, column) => cell + " ".repeat(widths[column]! - displayWidth(cell))).join("  ").trimEnd()
  );
  const reasons = servers.flatMap(({ name, state }) => {
    if (!("reason" in state)) return [];
    const reason = `${escapeControls(name)}: ${escapeControls(state.reason)}`;
    // What `/mcp trust` would approve, so it can be reviewed first.
    const entry = manager.entry(name);
    return state.kind === "refused" && entry && entry.trust !== "user"
      ? [reason, `  ${definitionOf(entry)}`]
      : [reason];
  });
  return [...lines, ...(reasons.length ? ["", ...reasons] : [])].join("\n");
}

function statusLabel(state: McpServerState): string {
  switch (state.kind) {
    case "connected":
      return t("mcp.state_connected");
    case "starting":
      return t("mcp.state_starting");
    case "idle":
      return t("mcp.state_idle");
    case "needs_auth":
      return t("mcp.state_auth");
    case "failed":
      return t("mcp.state_failed");
    case "refused":
      return /trust/.test(state.reason) ? t("mcp.state_untrusted") : t("mcp.state_refused");
  }
  return String((state as { kind: string }).kind);
}

async function countsOf(manager: McpManager, name: string): Promise<string[]> {
  const connection = manager.peek(name);
  if (connection === undefined) return ["-", "-", "-"];
  const count = (list: Promise<unknown[]>) =>
    withinTime(list.then((items) => String(items.length), () => "?"), COUNT_TIMEOUT_MS, "?");
  return await Promise.all([
    count(connection.listTools()),
    count(connection.listPrompts()),
    count(
      Promise.all([connection.listResources(), connection.listResourceTemplates()]).then((
        [r, tl],
      ) => [...r, ...tl]),
    ),
  ]);
}

/** The definition approval covers, as one escaped line: the command line or URL, and the env names. */
function definitionOf(entry: McpServerEntry): string {
  const { decl } = entry;
  const target = decl.type === "stdio" ? [decl.command, ...decl.args].join(" ") : `${decl.type} ${decl.url}`;
  const env = Object.keys(decl.env);
  return escapeControls(env.length ? `${target} (env: ${env.join(", ")})` : target);
}
