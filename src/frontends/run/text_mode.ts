/**
 * @module
 * `reasonix run`'s text mode put together: the text output on stdout and stderr, the stderr spinner
 * when stderr is a terminal, the closing session line, and a reader that left stdout (`| head -1`),
 * which stops the run quietly as SIGPIPE stops any Unix tool.
 */
import type { ReasonixEvent, StopSignal, TurnTotals } from "../../control/mod.ts";
import { isBrokenPipe } from "../../lib/errors.ts";
import { escapeControls } from "../../lib/terminal_text.ts";
import { stderrProgress } from "./progress.ts";
import { createTextOutput, formatMoney } from "./text_output.ts";

export interface TextModeOptions {
  write: (text: string) => void;
  writeError: (text: string) => void;
  /** Colour on stderr. */
  color: boolean;
  showThinking: boolean;
  print: boolean;
  /** The spinner line on stderr (stderr is a terminal). */
  progress: boolean;
  /** Told once when stdout's reader has gone. */
  stop: (signal: StopSignal) => void;
}

export interface TextMode {
  render(event: ReasonixEvent): void;
  /** The closing line on stderr: which session, what it cost (none with -p). */
  finish(sessionId: string, totals: TurnTotals): void;
}

export function textMode(options: TextModeOptions): TextMode {
  let answerAtLineStart = true;
  let infoAtLineStart = true;
  const spinner = options.progress
    ? stderrProgress({
      writeError: options.writeError,
      columns: terminalColumns,
      atLineStart: () => answerAtLineStart && infoAtLineStart,
    })
    : null;
  let readerGone = false;
  const write = (text: string) => {
    if (readerGone || !text) return;
    spinner?.clear();
    try {
      options.write(text);
    } catch (error) {
      if (!isBrokenPipe(error)) throw error;
      readerGone = true;
      return options.stop("SIGPIPE");
    }
    answerAtLineStart = text.endsWith("\n");
  };
  const writeInfo = (text: string) => {
    if (!text) return;
    spinner?.clear();
    options.writeError(text);
    infoAtLineStart = text.endsWith("\n");
  };
  const text = createTextOutput({
    write,
    writeInfo,
    color: options.color,
    showThinking: options.showThinking,
    answerOnly: options.print,
  });
  // Counted here: the Controller adds a turn's model calls to its totals only when the turn ends well.
  return {
    render(event) {
      spinner?.update(event);
      // The reader left on purpose: its stop is no failure to tell.
      if (event.type === "turn_done" && event.error?.code === "output.broken_pipe") {
        const { error: _quiet, ...done } = event;
        return text(done);
      }
      text(event);
    },
    finish(sessionId, totals) {
      spinner?.stop();
      if (options.print) return;
      const line = sessionLine(sessionId, totals);
      writeInfo(options.color ? `\x1b[2m${line}\x1b[0m\n` : `${line}\n`);
    },
  };
}

/**
 * `session 20261203-201500-1a2b3c4d · ¥0.0123 · 3 requests · 2 tool calls · cache hit 87%`, where
 * `modelCalls` is the requests that completed; the cost and cache figure include the subagents'
 * requests, counted as `· N subagent requests` when there were any.
 */
export function sessionLine(sessionId: string, totals: TurnTotals): string {
  const u = totals.usage;
  const parts = [`session ${escapeControls(sessionId)}`];
  if (totals.cost !== null) parts.push(formatMoney(totals.cost, totals.currency));
  parts.push(count(totals.modelCalls, "request"));
  if (totals.subagentCalls > 0) parts.push(count(totals.subagentCalls, "subagent request"));
  if (totals.toolCalls > 0) parts.push(count(totals.toolCalls, "tool call"));
  if (u.promptTokens > 0) parts.push(`cache hit ${Math.round((u.cacheHitTokens / u.promptTokens) * 100)}%`);
  return parts.join(" · ");
}

function count(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? "" : "s"}`;
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}
