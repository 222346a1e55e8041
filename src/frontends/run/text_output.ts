/**
 * @module
 * Human-readable `reasonix run` output: tool calls, the streamed answer, and a receipt per model
 * call. Colour only on a terminal and never with NO_COLOR.
 */
import type { ReasonixEvent } from "../../control/events.ts";

export interface TextOutputOptions {
  write: (text: string) => void;
  color: boolean;
  showThinking: boolean;
  /** `-p/--print`: only the final answer. */
  answerOnly: boolean;
}

export function createTextOutput(options: TextOutputOptions): (event: ReasonixEvent) => void {
  const dim = (s: string) => options.color ? `\x1b[2m${s}\x1b[0m` : s;
  const red = (s: string) => options.color ? `\x1b[31m${s}\x1b[0m` : s;
  let midLine = false;
  let thinking = false;
  function out(text: string): void {
    if (text.length === 0) return;
    options.write(text);
    midLine = !text.endsWith("\n");
  }
  function newline(): void {
    if (midLine) out("\n");
  }
  return function render(event: ReasonixEvent): void {
    if (options.answerOnly) {
      if (event.type === "turn_done") out(event.result + "\n");
      return;
    }
    switch (event.type) {
      case "reasoning":
        if (!options.showThinking) return;
        if (!thinking) out(dim("▎ thinking\n"));
        thinking = true;
        out(dim(event.text));
        return;
      case "text":
        if (thinking) newline();
        thinking = false;
        out(event.text);
        return;
      case "message":
        // The calls of a model reply print with it, before its receipt, as they were requested.
        if (event.message.tool_calls?.length) newline();
        for (const call of event.message.tool_calls ?? []) {
          out(dim(`  -> ${call.function.name} ${clip(call.function.arguments, 200)}\n`));
        }
        return;
      case "tool_result":
        if (!event.ok) out(red(`  ✗ ${event.name}: ${clip(event.output, 300)}\n`));
        return;
      case "retrying":
        newline();
        out(
          dim(
            `  · retrying (${event.attempt}/${event.maxAttempts}) in ${
              Math.round(event.delayMs)
            }ms: ${event.reason}\n`,
          ),
        );
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
        out(red(`warning: ${event.message}\n`));
        return;
      case "turn_done":
        newline();
        if (event.error) {
          out(
            red(`error: ${event.error.message}\n`) + (event.error.hint ? `hint: ${event.error.hint}\n` : ""),
          );
        }
        return;
    }
  };
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
