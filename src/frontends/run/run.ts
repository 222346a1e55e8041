/**
 * @module
 * `reasonix run`: one headless task through the Controller, rendered as text, json or stream-json,
 * with optional redacted events, a durable trajectory and a metrics summary.
 */
import {
  bootController,
  type BootOptions,
  type Controller,
  type FaceHooks,
  type GoalSnapshot,
  type ReasonixEvent,
  type ReviewTurn,
  stopError,
  type StopSignal,
  type SubmitResult,
  type TurnOutcome,
  type TurnSubtype,
} from "../../control/mod.ts";
import { buildRunResult, runDoneLine } from "./result.ts";
import { goalOutcome, goalResult, lastAnswer } from "./goal_result.ts";
import { planOutcome, watchPlans } from "./plan_result.ts";
import { Redactor, streamJsonLine, trajectoryLine } from "./event_lines.ts";
import { LineFile } from "./line_file.ts";
import { type TextMode, textMode } from "./text_mode.ts";
import { buildMetrics } from "./metrics.ts";
import { taskFitError } from "./task_input.ts";
import { stripControls, terminalSafeJson } from "../../lib/terminal_text.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { dirname, resolve } from "node:path";

export type OutputFormat = "text" | "json" | "stream-json";

export interface RunOptions {
  task: string;
  /** `--goal`: the task is a goal's objective, run turn after turn until the goal ends. */
  goal?: boolean;
  boot: Omit<BootOptions, "headless">;
  outputFormat: OutputFormat;
  eventsJsonl: boolean;
  print: boolean;
  showThinking: boolean;
  trajectory?: string;
  metrics?: string;
  write: (text: string) => void;
  writeError: (text: string) => void;
  /** Colour in text mode's stderr lines (stderr is a terminal, NO_COLOR unset). */
  color: boolean;
  /** A spinner line on stderr in text mode (stderr is a terminal). */
  progress?: boolean;
  /** Builds the turn instead of routing `task` as typed (`reasonix review`: a diff with a skill pinned). */
  prepare?: (controller: Controller) => Promise<ReviewTurn>;
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
  await checkOutputFiles(options);
  // Installed before the boot and removed after the close: a stop signal at any point still ends the run
  // with a result and every child process reaped.
  const removeInterrupt = options.onInterrupt?.((signal) => stop(state, signal));
  try {
    // A failure to start (bad --dir, config, key) is thrown: main.ts reports it, as text or as the result.
    state.controller = await bootController({ ...options.boot, headless: true });
    const unfit = taskFitError(options.task, state.controller.contextWindow);
    if (unfit) {
      // Nothing was sent and no session was written; main.ts reports it like any usage error.
      await state.controller.close();
      throw unfit;
    }
    return await runTask(options, state, state.controller);
  } finally {
    removeInterrupt?.();
  }
}

function stop(state: RunState, signal: StopSignal): void {
  state.stopped ??= signal;
  state.controller?.interrupt(signal);
}

async function runTask(options: RunOptions, state: RunState, controller: Controller): Promise<RunReport> {
  const { started } = state;
  const sinks = await openSinks(options, controller, (signal) => stop(state, signal));
  const plans = watchPlans();
  const unwatch = controller.subscribe(plans.listener);
  controller.start();
  let outcome: TurnOutcome;
  let goal: GoalSnapshot | undefined;
  try {
    // Checked right before the turn starts: a signal during the boot never reached a turn to interrupt.
    if (state.stopped) outcome = stoppedOutcome(state.stopped);
    else if (options.goal) ({ outcome, goal } = await runGoal(controller, options.task, state));
    else outcome = taskOutcome(await startTurn(options, controller));
  } finally {
    unwatch();
    sinks.close();
    await controller.close();
  }
  outcome = planOutcome(outcome, plans.plan());
  if (sinks.text && outcome.result && plans.plan()) options.write(`\n${stripControls(outcome.result)}\n`);
  sinks.text?.finish(controller.sessionId, controller.totals());
  emitResult(options, outcome, { started, controller, ...(goal ? { goal } : {}) });
  if (options.metrics) await writeMetrics(options.metrics, controller, outcome, started);
  return { subtype: outcome.subtype, errorCode: outcome.error?.code ?? null };
}

function startTurn(options: RunOptions, controller: Controller): Promise<SubmitResult> {
  if (options.prepare === undefined) return controller.submit(options.task, commandFace());
  return options.prepare(controller).then(async (turn) => {
    const unfit = taskFitError(turn.text, controller.contextWindow);
    if (unfit) throw unfit;
    return { kind: "turn" as const, outcome: await controller.runTurn(turn.text, turn.options) };
  });
}

/** `--trajectory` and `--metrics` name files to write: a bad path is a usage error before any model call. */
async function checkOutputFiles(options: RunOptions): Promise<void> {
  const outputs = [["--trajectory", options.trajectory], ["--metrics", options.metrics]] as const;
  for (const [flag, path] of outputs) {
    if (path === undefined) continue;
    const folder = dirname(resolve(path));
    if (!(await Deno.stat(folder).catch(() => null))?.isDirectory) {
      throw new ReasonixError(
        "usage.bad_output",
        `Cannot write ${flag} to "${path}": no directory "${folder}"`,
      );
    }
    if ((await Deno.stat(path).catch(() => null))?.isDirectory) {
      throw new ReasonixError("usage.bad_output", `Cannot write ${flag} to "${path}": it is a directory`);
    }
  }
}

/** `--goal`: runs the goal to its end; a stop signal's code wins over the goal's. */
async function runGoal(controller: Controller, objective: string, state: RunState) {
  const answer = lastAnswer();
  const unwatch = controller.subscribe(answer.listener);
  try {
    const goal = await controller.goal.start(objective);
    const outcome = state.stopped ? stoppedOutcome(state.stopped) : goalOutcome(goal, answer.text());
    return { outcome, goal };
  } finally {
    unwatch();
  }
}

function stoppedOutcome(signal: StopSignal): TurnOutcome {
  const error = stopError(signal);
  return { subtype: "error_during_execution", result: error.message, error };
}

/** The task goes through `submit` like typed input: a slash command succeeds with its answer. */
function taskOutcome(submitted: SubmitResult): TurnOutcome {
  if (submitted.kind === "turn") return submitted.outcome;
  const result = submitted.output.join("\n");
  if (submitted.kind === "command" && submitted.error) {
    return { subtype: "error_during_execution", result, error: submitted.error };
  }
  if (submitted.kind === "command") return { subtype: "success", result };
  return {
    subtype: "error_during_execution",
    result,
    error: { code: "usage.unknown_command", message: result },
  };
}

interface Sinks {
  /** Text mode's output, which closes with a line of its own. */
  text: TextMode | null;
  close(): void;
}

async function openSinks(
  options: RunOptions,
  controller: Controller,
  stopRun: (signal: StopSignal) => void,
): Promise<Sinks> {
  const trajectory = options.trajectory ? await LineFile.open(options.trajectory) : null;
  let seq = 0;
  const text = !options.eventsJsonl && options.outputFormat === "text"
    ? textMode({ ...options, progress: options.progress ?? false, stop: stopRun })
    : null;
  const render = text?.render ?? jsonRenderer(options, controller.sessionId);
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
    text,
    close() {
      unsubscribe();
      trajectory?.close();
    },
  };
}

function jsonRenderer(options: RunOptions, sessionId: string): (event: ReasonixEvent) => void {
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
  return (event) => {
    if (event.type === "warning") options.writeError(`warning: ${stripControls(event.message)}\n`);
  };
}

/** A slash command's tables fit a terminal on stdout; piped output keeps their 80-column default. */
function commandFace(): FaceHooks {
  return Deno.stdout.isTerminal() ? { width: terminalColumns() } : {};
}

function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return 80;
  }
}

function emitResult(
  options: RunOptions,
  outcome: TurnOutcome,
  state: { started: number; controller: Controller; goal?: GoalSnapshot },
): void {
  const result = buildRunResult({
    subtype: outcome.subtype,
    result: outcome.result,
    durationMs: Math.round(performance.now() - state.started),
    numTurns: state.goal ? state.goal.turns : 1,
    sessionId: state.controller.sessionId,
    totals: state.controller.totals(),
    ...(outcome.error ? { error: outcome.error } : {}),
  });
  if (state.goal) result.goal = goalResult(state.goal);
  if (options.eventsJsonl) {
    options.write(jsonLine(runDoneLine(result)));
    return;
  }
  if (options.outputFormat !== "text") options.write(jsonLine(result));
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
