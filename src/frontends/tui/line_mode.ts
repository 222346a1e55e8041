/**
 * @module
 * `reasonix` when stdout is not a terminal: each stdin line goes to `submit` (a slash command or a turn), printed as
 * plain text. The `ask` tool's questions are answered by the next stdin lines; so are approvals when stdin is a
 * terminal (a person types there). Otherwise it boots like `reasonix run`: gated calls are refused.
 */
import {
  bootController,
  type BootOptions,
  goalEventText,
  progressLine,
  type ReasonixEvent,
  stopError,
  type StopSignal,
} from "../../control/mod.ts";
import { onTuiStopSignals } from "./stop_signals.ts";
import { keyArgument, reveal, sanitize } from "./components/format.ts";
import { subagentLine } from "./subagent_line.ts";
import { ControlStripper } from "../../lib/terminal_text.ts";
import { errorText } from "../../lib/errors.ts";
import { answerOnLines } from "./line_questions.ts";
import { answerApprovalOnLines } from "./line_approvals.ts";
import { answerPlanOnLines, planResolvedLine } from "./line_plans.ts";
import { detectLanguage, setLanguage } from "../../lib/i18n/mod.ts";

export interface LineModeOptions {
  boot: Omit<BootOptions, "headless">;
  input: ReadableStream<Uint8Array>;
  write: (text: string) => void;
  /** Sent before the first line read from `input`. */
  firstPrompt?: string;
  /** A person types the input (stdin is a terminal): gated calls are asked, not refused. */
  asksApprovals?: boolean;
}

/** Returns the error code of the last turn that failed (already printed), null when every turn succeeded. */
export async function runLineMode(options: LineModeOptions): Promise<string | null> {
  const controller = await bootController({
    ...options.boot,
    headless: options.asksApprovals !== true,
    answersQuestions: true,
    switchable: true,
  });
  setLanguage(detectLanguage(options.boot.env ?? {}, controller.uiSettings.language));
  const render = plainPrinter(options.write);
  const input = options.input.pipeThrough(new TextDecoderStream()).getReader();
  const lines = readLines(input);
  // A stop signal ends the running turn as Ctrl+C does and stops reading: no more turns start.
  let stopped: StopSignal | null = null;
  let wake = () => {};
  const stopping = new Promise<null>((resolve) => wake = () => resolve(null));
  const removeSignals = onTuiStopSignals((signal) => {
    stopped = signal;
    controller.interrupt(signal);
    wake();
    // A pending read of stdin would keep the process alive.
    input.cancel().catch(() => {});
  });
  let first = options.firstPrompt;
  const next = async () => {
    if (first !== undefined) {
      const prompt = first;
      first = undefined;
      return prompt;
    }
    const read = await Promise.race([lines.next(), stopping]);
    return read === null || read.done || stopped ? null : read.value;
  };
  // A redraw (after /switch or a rewind) replays the line; a plain stream printed it already.
  let printedUpTo = 0;
  const unsubscribe = controller.subscribe((event) => {
    if (event.type === "session_started" && event.redraw) printedUpTo = controller.lastSeq;
    if (event.seq !== undefined && event.seq <= printedUpTo) return;
    render(event);
    if (event.type === "approval_requested") {
      void answerApprovalOnLines(event.request, next, options.write)
        .then((answer) => controller.answerApproval(event.request.id, answer.choice, answer.reason));
    }
    if (event.type === "plan_proposed") {
      void answerPlanOnLines(event.plan, next, options.write)
        .then((answer) => controller.plans?.answer(event.plan.revision, answer.decision, answer.feedback));
    }
    if (event.type === "plan_resolved") options.write(planResolvedLine(event));
    if (event.type !== "question_asked") return;
    void answerOnLines(event.questions, next, options.write)
      .then((reply) => controller.answerQuestion(event.id, reply));
  });
  let quit = false;
  const face = { quit: () => quit = true, localBrowser: true };
  controller.start();
  let failed: string | null = null;
  try {
    for (let line = await next(); line !== null; line = await next()) {
      if (!line.trim()) continue;
      const submitted = await controller.submit(line.trim(), face);
      if (quit || stopped) break;
      if (submitted.kind !== "turn") continue;
      const { subtype, error } = submitted.outcome;
      if (subtype !== "success") failed = error?.code ?? "turn.failed";
      options.write("\n");
    }
  } finally {
    unsubscribe();
    await controller.close();
    removeSignals();
  }
  return stopped ? stopError(stopped).code : failed;
}

async function* readLines(input: ReadableStreamDefaultReader<string>): AsyncGenerator<string> {
  let buffered = "";
  for (let read = await input.read(); !read.done; read = await input.read()) {
    buffered += read.value;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    yield* lines;
  }
  if (buffered) yield buffered;
}

/** Answer text as it streams, one line per tool call and result, warnings and errors. */
function plainPrinter(write: (text: string) => void): (event: ReasonixEvent) => void {
  let midLine = false;
  const answer = new ControlStripper();
  const text = (chunk: string) => {
    if (!chunk) return;
    write(chunk);
    midLine = !chunk.endsWith("\n");
  };
  const line = (text: string) => {
    write(`${midLine ? "\n" : ""}${text}\n`);
    midLine = false;
  };
  return (event) => {
    if (event.type === "text") return text(answer.push(event.text));
    text(answer.flush());
    if (event.type === "tool_call") line(`· ${reveal(event.name)} ${keyArgument(event.arguments)}`);
    else if (event.type === "tool_result") {
      line(`${event.ok ? "✓" : "✗"} ${reveal(event.name)}${event.code ? ` ${event.code}` : ""}`);
    } else if (event.type === "tool_progress") line(`  ${reveal(event.name)} ${reveal(progressLine(event))}`);
    else if (event.type === "warning") line(`warning: ${sanitize(event.message)}`);
    else if (event.type === "turn_done" && event.error) line(errorText(event.error).trimEnd());
    else if (event.type === "command_output") line(sanitize(event.text));
    else if (event.type === "notice") line(sanitize(event.message));
    else if (event.type === "subagent") {
      const shown = subagentLine(event);
      if (shown !== null) line(shown);
    } else if (event.type === "goal_updated") line(goalEventText(event.goal));
  };
}
