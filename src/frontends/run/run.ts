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
  stopError,
  type StopSignal,
  type SubmitResult,
  type TurnOutcome,
  type TurnSubtype,
} from "../../control/mod.ts";
import { buildRunResult } from "./result.ts";
import { Redactor, streamJsonLine, trajectoryLine } from "./event_lines.ts";
import { LineFile } from "./line_file.ts";
import { createTextOutput } from "./text_output.ts";
import { buildMetrics } from "./metrics.ts";
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
  /** Installs the stop-signal handlers (Ctrl+C, SIGTERM, SIGHUP); returns the function that removes them. */
  onInterrupt?: (interrupt: (signal: StopSignal) => void) => () => void;
}

export interface RunReport {
  subtype: TurnSubtype;
  /** The error code that decided the failure; null on success. */
  errorCode: string | null;
}

interface RunState {
  started: number;
  controller: Controller | null;
  /** The first stop signal, whenever it came. */
  stopped: StopSignal | null;
}

export async function runHeadless(options: RunOptions): Promise<RunReport> {
  const state: RunState = { started: performance.now(), controller: null, stopped: null };
  // Installed before the boot and removed after the close: a stop signal at any point still ends the run
  // with a result and every child process reaped.
  const removeInterrupt = options.onInterrupt?.((signal) => {
    state.stopped ??= signal;
    state.controller?.interrupt(signal);
  });
  try {
    try {
      state.controller = await bootController({ ...options.boot, headless: true });
    } catch (error) {
      const info = explainError(error);
      emitResult(options, {
        subtype: "error_during_execution",
        result: info.message,
        error: info,
      }, { started: state.started, controller: null });
      return { subtype: "error_during_execution", errorCode: info.code };
    }
    return await runTask(options, state, state.controller);
  } finally {
    removeInterrupt?.();
  }
}

async function runTask(options: RunOptions, state: RunState, controller: Controller): Promise<RunReport> {
  const { started } = state;
  const sinks = await openSinks(options, controller);
  controller.start();
  let outcome: TurnOutcome;
  try {
    // Checked right before the turn starts: a signal during the boot never reached a turn to interrupt.
    outcome = state.stopped
      ? stoppedOutcome(state.stopped)
      : taskOutcome(await controller.submit(options.task));
  } finally {
    sinks.close();
    await controller.close();
  }
  emitResult(options, outcome, { started, controller });
  if (options.metrics) await writeMetrics(options.metrics, controller, outcome, started);
  return { subtype: outcome.subtype, errorCode: outcome.error?.code ?? null };
}

function stoppedOutcome(signal: StopSignal): TurnOutcome {
  const error = stopError(signal);
  return { subtype: "error_during_execution", result: error.message, error };
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
  const text = createTextOutput({
    write: options.write,
    color: options.color,
    showThinking: options.showThinking,
    answerOnly: options.print,
  });
  // Warnings (an ignored reasonix.toml key, a refused instruction file) are diagnostics: stderr, even with -p.
  return (event) =>
    event.type === "warning"
      ? options.writeError(`warning: ${event.message}
`)
      : text(event);
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
