/**
 * @module
 * `reasonix session list|show|status`: renders what control/session_report.ts finds, as text or as one
 * JSON object (`{"schema_version":1,"command":"session.list",…}`).
 */
import {
  adminContext,
  sessionList,
  sessionStatus,
  sessionTranscript,
  type TranscriptEntry,
} from "../../control/mod.ts";

type Options = { dir?: string; json?: boolean };

function emit(command: string, body: Record<string, unknown>): void {
  console.log(JSON.stringify({ schema_version: 1, command, ...body }));
}

function money(cost: number | null, currency: string | null): string {
  if (cost === null) return "-";
  return `${currency === "CNY" ? "¥" : currency === "USD" ? "$" : ""}${cost.toFixed(4)}${
    currency && currency !== "CNY" && currency !== "USD" ? ` ${currency}` : ""
  }`;
}

function oneLine(text: string | null, max: number): string {
  const flat = (text ?? "").replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export async function sessionListCmd(opts: Options): Promise<void> {
  const sessions = await sessionList(await adminContext(opts.dir));
  if (opts.json) return emit("session.list", { sessions });
  if (sessions.length === 0) return console.log("No sessions for this workspace yet");
  const lines = [
    `${"ID".padEnd(26)}${"UPDATED".padEnd(22)}${"TURNS".padStart(5)}  ${"COST".padEnd(10)}MODEL  TITLE`,
  ];
  for (const s of sessions) {
    lines.push(
      `${s.id.padEnd(26)}${s.modifiedAt.slice(0, 19).padEnd(22)}${String(s.turns).padStart(5)}  ${
        money(s.cost, s.currency).padEnd(10)
      }${s.provider}/${s.lastModel}  ${s.parent ? `[child of ${s.parent}] ` : ""}${
        oneLine(s.title ?? s.firstMessage, 60)
      }`,
    );
  }
  console.log(lines.join("\n"));
}

export async function sessionShowCmd(query: string, opts: Options & { reasoning?: boolean }): Promise<void> {
  const { id, entries } = await sessionTranscript(await adminContext(opts.dir), query, {
    reasoning: Boolean(opts.reasoning),
  });
  if (opts.json) return emit("session.show", { id, messages: entries });
  console.log(entries.map(render).join("\n\n"));
}

function render(entry: TranscriptEntry): string {
  if (entry.role === "user") return `> ${entry.text.replaceAll("\n", "\n> ")}`;
  if (entry.role === "tool") return `  [${entry.tool}] ${oneLine(entry.text, 200)}`;
  const parts: string[] = [];
  if (entry.reasoning) parts.push(`  (thinking) ${entry.reasoning.replaceAll("\n", "\n  ")}`);
  if (entry.text) parts.push(entry.text);
  for (const call of entry.toolCalls ?? []) parts.push(`  -> ${call.name} ${oneLine(call.arguments, 200)}`);
  return parts.join("\n");
}

export async function sessionStatusCmd(query: string | undefined, opts: Options): Promise<void> {
  const status = await sessionStatus(await adminContext(opts.dir), query ?? "latest");
  if (opts.json) return emit("session.status", { session: status });
  const owner = status.inUseBy;
  console.log([
    `id:        ${status.id}`,
    `title:     ${status.title ?? oneLine(status.firstMessage, 60)}`,
    `workspace: ${status.workspace}`,
    `model:     ${status.provider}/${status.lastModel}`,
    `turns:     ${status.turns} (last: ${status.lastTurn})`,
    `cost:      ${money(status.cost, status.currency)}`,
    `created:   ${status.createdAt}`,
    `updated:   ${status.modifiedAt}`,
    `in use:    ${owner ? `by process ${owner.pid} (started at ${owner.startedAt})` : "no"}`,
    `file:      ${status.file}`,
  ].join("\n"));
}
