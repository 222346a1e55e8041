/**
 * @module
 * `/context`: what the model's window holds, by part (system prompt, tool schemas, instruction files,
 * digests, conversation, tool results) in estimated tokens and share of the window, and at which
 * size the next snip, compaction and forced compaction happen.
 */
import type { ChatMessage } from "../provider/provider.ts";
import { estimateTokens, isDigest, isTransientBlock } from "../agent/compaction.ts";
import { t } from "../lib/i18n/mod.ts";
import { keyValueTable } from "../lib/text_table.ts";

export type ContextPartName = "system" | "tools" | "instructions" | "digests" | "history" | "tool_results";

export interface ContextReport {
  parts: { name: ContextPartName; tokens: number }[];
  /** The running estimate (last reported prompt tokens plus what was appended since). */
  estimate: number;
  window: number | null;
  snipAt: number | null;
  compactAt: number | null;
  forceAt: number | null;
}

const INSTRUCTIONS = "\n\n# Instructions\n\n";

export function contextParts(history: readonly ChatMessage[], toolsJson: string): ContextReport["parts"] {
  const sums: Record<ContextPartName, number> = {
    system: 0,
    tools: estimateTokens([], toolsJson),
    instructions: 0,
    digests: 0,
    history: 0,
    tool_results: 0,
  };
  for (const message of history) {
    const tokens = estimateTokens([message]);
    if (message.role === "system") {
      const at = message.content.indexOf(INSTRUCTIONS);
      const instructions = at < 0 ? 0 : estimateTokens([], message.content.slice(at));
      sums.instructions += instructions;
      sums.system += tokens - instructions;
    } else if (message.role === "tool") sums.tool_results += tokens;
    else if (isDigest(message) || isTransientBlock(message)) sums.digests += tokens;
    else sums.history += tokens;
  }
  return (Object.keys(sums) as ContextPartName[]).map((name) => ({ name, tokens: sums[name] }));
}

function share(tokens: number, window: number | null): string {
  return window ? ` (${(100 * tokens / window).toFixed(1)}%)` : "";
}

export function formatContextReport(report: ContextReport, width?: number): string {
  const rows: [string, string][] = report.parts.map((
    part,
  ) => [t(`context.part_${part.name}`), `~${part.tokens}${share(part.tokens, report.window)}`]);
  rows.push([t("context.estimate"), `~${report.estimate}${share(report.estimate, report.window)}`]);
  if (!report.window) {
    rows.push([t("context.window"), t("context.no_window")]);
    return keyValueTable(rows, width);
  }
  rows.push([t("context.window"), String(report.window)]);
  const next = (at: number | null) => at === null ? t("context.never") : `~${at}${share(at, report.window)}`;
  rows.push([t("context.next_snip"), next(report.snipAt)]);
  rows.push([t("context.next_compaction"), next(report.compactAt)]);
  rows.push([t("context.forced_at"), next(report.forceAt)]);
  return keyValueTable(rows, width);
}
