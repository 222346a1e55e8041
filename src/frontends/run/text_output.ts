/**
 * @module
 * Human-readable `reasonix run` output: tool calls, the streamed answer, and a receipt per model
 * call. Colour only on a terminal and never with NO_COLOR. Text the model or a tool produced is
 * cleaned of terminal controls before our own colour codes go around it.
 */
import type { ReasonixEvent } from "../../control/mod.ts";
import { errorText } from "../../lib/errors.ts";
import { ControlStripper, escapeControls, stripControls } from "../../lib/terminal_text.ts";

export interface TextOutputOptions {
  write: (text: string) => void;
  color: boolean;
  showThinking: boolean;
  /** `-p/--print`: only the final answer. */
  answerOnly: boolean;
}

export function createTextOutput(options: TextOutputOptions): (event: ReasonixEvent) => void {
  const dim = (s: string) => options.color && s ? `\x1b[2m${s}\x1b[0m` : s;
  const red = (s: string) => options.color && s ? `\x1b[31m${s}\x1b[0m` : s;
  let midLine = false;
  let thinking = false;
  const answer = new ControlStripper();
  const reasoning = new ControlStripper();
  function out(text: string): void {
    if (text.length === 0) return;
    options.write(text);
    midLine = !text.endsWith("\n");
  }
  function newline(): void {
    if (midLine) out("\n");
  }
  /** A sequence still open when its stream stops is not one: print what it held as text. */
  function endStreams(): void {
    out(dim(reasoning.flush()));
    out(answer.flush());
  }
  return function render(event: ReasonixEvent): void {
    // A slash command as the task (`run "/cost"`): its answer is the output, even with -p.
    if (event.type === "command_output") return out(stripControls(event.text) + "\n");
    if (options.answerOnly) {
      if (event.type === "turn_done") out(stripControls(event.result) + "\n");
      return;
    }
    if (event.type !== "reasoning" && event.type !== "text") endStreams();
    switch (event.type) {
      case "reasoning":
        if (!options.showThinking) return;
        out(answer.flush());
        if (!thinking) out(dim("▎ thinking\n"));
        thinking = true;
        out(dim(reasoning.push(event.text)));
        return;
      case "text":
        out(dim(reasoning.flush()));
        if (thinking) newline();
        thinking = false;
        out(answer.push(event.text));
        return;
      case "message":
        // The calls of a model reply print with it, before its receipt, as they were requested.
        if (event.message.tool_calls?.length) newline();
        for (const call of event.message.tool_calls ?? []) out(dim(callLine(call.function)));
        return;
      case "tool_result":
        if (!event.ok) {
          out(red(`  ✗ ${escapeControls(event.name)}: ${clip(stripControls(event.output), 300)}\n`));
        }
        return;
      case "retrying":
        newline();
        out(dim(retryLine(event)));
        return;
      case "usage":
        newline();
        thinking = false;
        out(dim(receiptLine(event)) + "\n");
        return;
      case "compaction":
        newline();
        thinking = false;
        out(dim(`  · context compacted: ~${event.beforeTokens} → ~${event.afterTokens} tokens\n`));
        return;
      case "warning":
        newline();
        out(red(`warning: ${stripControls(event.message)}\n`));
        return;
      case "turn_done":
        newline();
        if (event.error) out(red(errorText(event.error)));
        return;
    }
  };
}

/** A command shows its controls as marks: whoever reads it should see exactly what ran. */
function callLine(call: { name: string; arguments: string }): string {
  return `  -> ${escapeControls(call.name)} ${clip(escapeControls(call.arguments), 200)}\n`;
}

function retryLine(event: Extract<ReasonixEvent, { type: "retrying" }>): string {
  const delay = Math.round(event.delayMs);
  return `  · retrying (${event.attempt}/${event.maxAttempts}) in ${delay}ms: ${
    stripControls(event.reason)
  }\n`;
}

function receiptLine(event: Extract<ReasonixEvent, { type: "usage" }>): string {
  const u = event.usage;
  const cost = event.cost === null ? "" : ` · ${formatMoney(event.cost, event.currency)}`;
  return `  · ${
    u.promptTokens + u.completionTokens
  } tok · in ${u.promptTokens} (${u.cacheHitTokens} cached / ` +
    `${u.cacheMissTokens} new, ${Math.round(event.hitRatio * 100)}% hit) · out ${u.completionTokens}${cost}`;
}

export function formatMoney(amount: number, currency: string | null): string {
  const symbol = currency === "CNY" ? "¥" : currency === "USD" ? "$" : "";
  return `${symbol}${amount.toFixed(amount < 0.01 ? 6 : 4)}${symbol ? "" : ` ${currency ?? ""}`}`.trim();
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? flat.slice(0, max) + "…" : flat;
}
