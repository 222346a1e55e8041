/**
 * @module
 * `reasonix run`: one headless task through the Controller, rendered as text, json or stream-json,
 * with optional redacted events, a durable trajectory and a metrics summary.
 */
import {
  bootController,
  type BootOptions,
  type Controller,
  explainError,
  type ReasonixEvent,
  type SubmitResult,
  type TurnOutcome,
  type TurnSubtype,
} from "../../control/mod.ts";
import { buildRunResult } from "./result.ts";
import { Redactor, streamJsonLine, trajectoryLine } from "./event_lines.ts";
import { LineFile } from "./line_file.ts";
import { createTextOutput } from "./text_output.ts";
import { stderrProgress } from "./progress.ts";
import { buildMetrics } from "./metrics.ts";
import { taskFitError } from "./task_input.ts";
import { stripControls, terminalSafeJson } from "../../lib/terminal_text.ts";

export type OutputFormat = "text" | "json" | "stream-json";

export interface RunOptions {
  task: string;
  boot: Omit<BootOptions, "headless">;
  outputFormat: OutputFormat;
  eventsJsonl: boolean;
  print: boolean;
  showThinking: boolean;
  trajectory?: string;
  metrics?: string;
  write: (text: string) => void;
  writeError: (text: string) => void;
  color: boolean;
  /** A spinner line on stderr in text mode (stderr is a terminal). */
  progress?: boolean;
  /** Installs an interrupt handler (Ctrl+C); returns the function that removes it. */
  onInterrupt?: (interrupt: () => void) => () => void;
}

export interface RunReport {
  subtype: TurnSubtype;
  /** The error code that decided the failure; null on success. */
  errorCode: string | null;
}

export async function runHeadless(options: RunOptions): Promise<RunReport> {
  const started = performance.now();
  let controller: Controller;
  try {
    controller = await bootController({ ...options.boot, headless: true });
  } catch (error) {
    return failBeforeTurn(options, error, started);
  }
  const unfit = taskFitError(options.task, controller.contextWindow);
  if (unfit) {
    await controller.close();
    return failBeforeTurn(options, unfit, started);
  }
  const sinks = await openSinks(options, controller);
  const removeInterrupt = options.onInterrupt?.(() => controller.interrupt());
  controller.start();
  let outcome: TurnOutcome;
  try {
    outcome = taskOutcome(await controller.submit(options.task));
  } finally {
    removeInterrupt?.();
    sinks.close();
    await controller.close();
  }
  emitResult(options, outcome, { started, controller });
  if (options.metrics) await writeMetrics(options.metrics, controller, outcome, started);
  return { subtype: outcome.subtype, errorCode: outcome.error?.code ?? null };
}

/** A failure before the task reached the model (boot, or a task too large): nothing was sent. */
function failBeforeTurn(options: RunOptions, error: unknown, started: number): RunReport {
  const info = explainError(error);
  emitResult(options, {
    subtype: "error_during_execution",
    result: info.message,
    error: info,
  }, { started, controller: null });
  return { subtype: "error_during_execution", errorCode: info.code };
}

/** The task goes through `submit` like typed input: a slash command succeeds with its answer. */
function taskOutcome(submitted: SubmitResult): TurnOutcome {
  if (submitted.kind === "turn") return submitted.outcome;
  const result = submitted.output.join("\n");
  if (submitted.kind === "command") return { subtype: "success", result };
  return {
    subtype: "error_during_execution",
    result,
    error: { code: "usage.unknown_command", message: result },
  };
}

interface Sinks {
  close(): void;
}

async function openSinks(options: RunOptions, controller: Controller): Promise<Sinks> {
  const trajectory = options.trajectory ? await LineFile.open(options.trajectory) : null;
  let seq = 0;
  const render = renderer(options, controller.sessionId);
  const unsubscribe = controller.subscribe((event) => {
    seq++;
    render(event);
    if (!trajectory) return;
    trajectory.writeLine(trajectoryLine(event, seq));
    if (event.type === "usage" || event.type === "turn_done" || event.type === "tool_result") {
      trajectory.sync();
    }
  });
  return {
    close() {
      unsubscribe();
      trajectory?.close();
    },
  };
}

function renderer(options: RunOptions, sessionId: string): (event: ReasonixEvent) => void {
  if (options.eventsJsonl) {
    const redactor = new Redactor();
    return (event) => {
      const line = redactor.line(event);
      if (line) options.write(jsonLine(line));
    };
  }
  if (options.outputFormat === "stream-json") {
    let seq = 0;
    return (event) => options.write(jsonLine(streamJsonLine(event, ++seq, sessionId)));
  }
  if (options.outputFormat === "json") {
    return (event) => {
      if (event.type === "warning") options.writeError(`warning: ${stripControls(event.message)}\n`);
    };
  }
  const progress = options.progress ? textProgress(options) : null;
  const text = createTextOutput({
    write: progress?.write ?? options.write,
    color: options.color,
    showThinking: options.showThinking,
    answerOnly: options.print,
  });
  // Warnings (an ignored reasonix.toml key, a refused instruction file) are diagnostics: stderr, even with -p.
  return (event) => {
    progress?.spinner.update(event);
    if (event.type !== "warning") return text(event);
    progress?.spinner.clear();
    options.writeError(`warning: ${event.message}\n`);
  };
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

/** The stderr spinner, and a stdout writer that wipes it first and tracks where the line stands. */
function textProgress(options: RunOptions) {
  let atLineStart = true;
  const spinner = stderrProgress({
    writeError: options.writeError,
    columns: terminalColumns,
    atLineStart: () => atLineStart,
  });
  const write = (text: string) => {
    if (!text) return;
    spinner.clear();
    options.write(text);
    atLineStart = text.endsWith("\n");
  };
  return { spinner, write };
}

function emitResult(
  options: RunOptions,
  outcome: TurnOutcome,
  state: { started: number; controller: Controller | null },
): void {
  const result = buildRunResult({
    subtype: outcome.subtype,
    result: outcome.result,
    durationMs: Math.round(performance.now() - state.started),
    numTurns: state.controller ? 1 : 0,
    sessionId: state.controller?.sessionId ?? null,
    totals: state.controller?.totals() ?? null,
    ...(outcome.error ? { error: outcome.error } : {}),
  });
  if (options.eventsJsonl) {
    options.write(jsonLine(runDoneLine(result)));
    return;
  }
  if (options.outputFormat !== "text") {
    options.write(jsonLine(result));
    return;
  }
  if (!state.controller && outcome.error) {
    options.writeError(`error: ${stripControls(outcome.error.message)}\n`);
    if (outcome.error.hint) options.writeError(`hint: ${stripControls(outcome.error.hint)}\n`);
  }
}

/** One JSON line for stdout, which may be a terminal: the C1 and bidi controls JSON leaves raw are escaped. */
function jsonLine(value: unknown): string {
  return terminalSafeJson(JSON.stringify(value)) + "\n";
}

async function writeMetrics(path: string, controller: Controller, outcome: TurnOutcome, started: number) {
  const metrics = buildMetrics(controller.totals(), {
    outcome: outcome.subtype,
    durationMs: Math.round(performance.now() - started),
  });
  await Deno.writeTextFile(path, JSON.stringify(metrics, null, 2) + "\n");
}

/** The redacted closing line: figures and the error code, never the answer or the error text. */
function runDoneLine(result: Record<string, unknown>): Record<string, unknown> {
  const { result: _answer, error, ...figures } = result;
  const code = (error as { code?: string } | undefined)?.code;
  return {
    schema_version: 1,
    kind: "run_done",
    ok: !result.is_error,
    ...figures,
    ...(code ? { error_code: code } : {}),
  };
}
