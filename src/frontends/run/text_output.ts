/**
 * @module
 * Human-readable `reasonix run` output. stdout gets only the answer (and a slash command's output), so
 * `reasonix run … > answer.md` and pipes see nothing else; thinking, one call line and one outcome line
 * per tool, retries, receipts, notices and errors go to stderr. Colour only on stderr and only when
 * asked. Text the model or a tool produced is cleaned of terminal controls before our own codes go
 * around it.
 */
import { goalEventText, progressLine, type ReasonixEvent } from "../../control/mod.ts";
import { errorText } from "../../lib/errors.ts";
import { ControlStripper, escapeControls, stripControls } from "../../lib/terminal_text.ts";
import { clip, toolOutcome } from "./tool_outcome.ts";

export interface TextOutputOptions {
  /** stdout: the answer. */
  write: (text: string) => void;
  /** stderr: everything else. */
  writeInfo: (text: string) => void;
  /** Colour for what goes to stderr. */
  color: boolean;
  showThinking: boolean;
  /** `-p/--print`: only the final answer, and errors and warnings on stderr. */
  answerOnly: boolean;
}

/** Two streams that may share one terminal: each ends the other's unfinished line before it writes. */
class Streams {
  #answerMidLine = false;
  #infoMidLine = false;
  constructor(readonly options: TextOutputOptions) {}

  answer(text: string): void {
    if (!text) return;
    if (this.#infoMidLine) this.info("\n");
    this.options.write(text);
    this.#answerMidLine = !text.endsWith("\n");
  }

  info(text: string): void {
    if (!text) return;
    this.endAnswerLine();
    this.options.writeInfo(text);
    this.#infoMidLine = !text.endsWith("\n");
  }

  /** A line of its own on stderr. */
  infoLine(text: string): void {
    if (this.#infoMidLine) this.info("\n");
    this.info(text);
  }

  endAnswerLine(): void {
    if (!this.#answerMidLine) return;
    this.#answerMidLine = false;
    this.options.write("\n");
  }
}

export function createTextOutput(options: TextOutputOptions): (event: ReasonixEvent) => void {
  const dim = (s: string) => options.color && s ? `\x1b[2m${s}\x1b[0m` : s;
  const red = (s: string) => options.color && s ? `\x1b[31m${s}\x1b[0m` : s;
  const streams = new Streams(options);
  const callArguments = new Map<string, string>();
  let thinking = false;
  const answer = new ControlStripper();
  const reasoning = new ControlStripper();
  /** A sequence still open when its stream stops is not one: print what it held as text. */
  function endStreams(): void {
    streams.info(dim(reasoning.flush()));
    streams.answer(answer.flush());
  }
  return function render(event: ReasonixEvent): void {
    // A slash command as the task (`run "/cost"`): its answer is the output, even with -p.
    if (event.type === "command_output") return streams.answer(stripControls(event.text) + "\n");
    if (event.type === "warning") return streams.infoLine(red(`warning: ${stripControls(event.message)}\n`));
    if (options.answerOnly) {
      if (event.type !== "turn_done") return;
      if (event.error) return streams.infoLine(red(errorText(event.error)));
      return streams.answer(stripControls(event.result) + "\n");
    }
    if (event.type !== "reasoning" && event.type !== "text") endStreams();
    if (event.type !== "reasoning") thinking = false;
    switch (event.type) {
      case "reasoning":
        if (!options.showThinking) return;
        streams.answer(answer.flush());
        if (!thinking) streams.infoLine(dim("▎ thinking\n"));
        thinking = true;
        return streams.info(dim(reasoning.push(event.text)));
      case "text":
        streams.info(dim(reasoning.flush()));
        return streams.answer(answer.push(event.text));
      case "message":
        // The calls of a model reply print with it, before its receipt, as they were requested.
        for (const call of event.message.tool_calls ?? []) streams.infoLine(dim(callLine(call.function)));
        return;
      case "tool_call":
        callArguments.set(event.callId, event.arguments);
        return;
      case "tool_result": {
        const outcome = toolOutcome(event, callArguments.get(event.callId));
        callArguments.delete(event.callId);
        return streams.infoLine((outcome.ok ? dim : red)(`    ${outcome.text}\n`));
      }
      case "tool_progress":
        return streams.infoLine(dim(`    … ${escapeControls(progressLine(event))}\n`));
      case "subagent":
        if (event.phase === "tool" || event.phase === "spent") return;
        return streams.infoLine(dim(subagentText(event)));
      case "retrying":
        return streams.infoLine(dim(retryLine(event)));
      case "usage":
        return streams.infoLine(dim(receiptLine(event)) + "\n");
      case "compaction":
        return streams.infoLine(
          dim(`  · context compacted: ~${event.beforeTokens} → ~${event.afterTokens} tokens\n`),
        );
      case "goal_updated":
        return streams.infoLine(dim(`  · ${goalEventText(event.goal)}\n`));
      case "turn_done":
        streams.endAnswerLine();
        if (event.error) streams.infoLine(red(errorText(event.error)));
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

function subagentText(event: Extract<ReasonixEvent, { type: "subagent" }>): string {
  const what = event.phase === "started" ? "started" : event.ok ? "done" : "failed";
  const text = event.phase === "started" ? event.description : event.preview ?? "";
  return `  · subagent ${event.sessionId} ${what}: ${clip(stripControls(text).replace(/\s+/g, " "), 160)}\n`;
}
