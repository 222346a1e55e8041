/**
 * @module
 * `/diff`, `/sandbox` and `/reload`: what changed in the workspace, what protects it, and re-reading
 * its settings mid-session.
 */
import { errorMessage } from "../../lib/errors.ts";
import { type MessageKey, t } from "../../lib/i18n/mod.ts";
import { keyValueTable } from "../../lib/text_table.ts";
import type { SandboxSummary } from "../sandbox_setup.ts";
import type { WorkspaceOps } from "../workspace_ops.ts";
import { reloadMcpServers } from "../mcp_boot.ts";
import type { CommandContext, SlashCommand } from "./registry.ts";

export function workspaceCommands(): SlashCommand[] {
  return [diff, sandbox, reload];
}

function withOps(name: string, body: (ops: WorkspaceOps, ctx: CommandContext) => void | Promise<void>) {
  return async (ctx: CommandContext) => {
    const ops = ctx.host.workspaceOps;
    if (!ops) return ctx.print(t("memory.unavailable", { command: name }));
    await body(ops, ctx);
  };
}

const diff: SlashCommand = {
  name: "diff",
  aliases: [],
  get summary() {
    return t("diffcmd.summary");
  },
  usage: "/diff",
  run: withOps("diff", async (ops, ctx) => {
    const result = await ops.diff().catch((error) => ({
      kind: "failed" as const,
      message: errorMessage(error),
    }));
    if (result.kind === "not_git") return ctx.print(t("diffcmd.not_git", { root: ctx.host.workspaceRoot }));
    if (result.kind === "failed") return ctx.print(t("diffcmd.failed", { message: result.message }));
    if (!result.patch.trim() && result.untracked.length === 0) return ctx.print(t("diffcmd.clean"));
    if (result.patch.trim()) (ctx.printDiff ?? ctx.print)(result.patch.replace(/\n$/, ""));
    const notes = [
      ...(result.truncated ? [t("diffcmd.truncated")] : []),
      ...(result.untracked.length
        ? [
          t("diffcmd.untracked", { count: result.untracked.length }),
          ...result.untracked.map((f) => `  ${f}`),
        ]
        : []),
    ];
    if (notes.length) ctx.print(notes.join("\n"));
  }),
};

const sandbox: SlashCommand = {
  name: "sandbox",
  aliases: [],
  get summary() {
    return t("sandbox.summary");
  },
  usage: "/sandbox",
  run: withOps("sandbox", (ops, ctx) => ctx.print(sandboxText(ops.sandbox, ctx.width))),
};

const BACKENDS: Record<string, MessageKey> = {
  bubblewrap: "sandbox.backend_bubblewrap",
  seatbelt: "sandbox.backend_seatbelt",
  refused: "sandbox.backend_refused",
  none: "sandbox.backend_none",
};

export function sandboxText(summary: SandboxSummary, width?: number): string {
  const paths = (list: readonly string[]) => list.length ? list : t("sandbox.none");
  const backend = summary.disabled ? "sandbox.backend_disabled" : BACKENDS[summary.backend];
  return keyValueTable([
    [t("sandbox.backend"), backend ? t(backend) : summary.backend],
    [t("sandbox.network"), t(summary.network ? "sandbox.network_on" : "sandbox.network_off")],
    [t("sandbox.writable"), paths(summary.writable)],
    [t("sandbox.forbid_read"), paths(summary.forbidRead)],
    [t("sandbox.read_only"), paths(summary.readOnly)],
    [t("sandbox.temp_dir"), summary.tempDir],
    ...(summary.warning ? [[t("sandbox.warning"), summary.warning] as const] : []),
  ], width);
}

const reload: SlashCommand = {
  name: "reload",
  aliases: [],
  get summary() {
    return t("reload.summary");
  },
  usage: "/reload",
  idleOnly: true,
  run: withOps("reload", async (ops, ctx) => {
    const result = await ops.reload();
    if (result.kind === "failed") return ctx.print(t("reload.failed", { message: result.message }));
    const mcp = ctx.host.mcp;
    const mcpWarnings = mcp ? await reloadMcpServers(mcp).catch((error) => [errorMessage(error)]) : [];
    ctx.print([
      ...[...result.warnings, ...mcpWarnings].map((message) => t("reload.warning", { message })),
      t("reload.done", { files: result.files.length ? result.files.join(", ") : t("reload.no_files") }),
      ...(result.mode ? [t("reload.mode", { mode: result.mode })] : []),
      ...(mcp?.status().length ? [t("reload.mcp")] : []),
      t(result.instructionsChanged ? "reload.instructions_changed" : "reload.instructions_same"),
      ...(result.skillsChanged ? [t("reload.skills_changed")] : []),
      t("reload.next_session"),
    ].join("\n"));
  }),
};
