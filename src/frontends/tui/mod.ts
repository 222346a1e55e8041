/**
 * @module
 * `reasonix` with no subcommand: setup when no key is configured, then the Ink shell on a terminal
 * or plain line mode when stdout is piped. Boots the Controller exactly like `reasonix run`.
 */
import { resolve } from "node:path";
import {
  bootController,
  type BootOptions,
  existingDir,
  type HistoryPort,
  mcpMentionTargets,
  needsSetup,
  openInputHistory,
  stopError,
  type StopSignal,
} from "../../control/mod.ts";
import { processEnv, resolvePaths } from "../../config/paths.ts";
import { detectLanguage, setLanguage, t } from "../../lib/i18n/mod.ts";
import { loadInkShell } from "./load_shell.ts";
import { type BootFrame, paintBootFrame } from "./boot_frame.ts";
import { runLineMode } from "./line_mode.ts";
import { onTuiStopSignals, settle } from "./stop_signals.ts";

export interface TuiOptions {
  boot: Omit<BootOptions, "headless" | "env" | "paths">;
  /** Plain line mode instead of Ink (stdout is not a terminal). */
  lineMode: boolean;
  /** `-r` with no query: Ink starts a fresh session and opens the session picker (line mode keeps `boot.resume`). */
  pickSession?: boolean;
  /** `reasonix "fix the failing test"`: sent as the first input once the shell is up. */
  firstPrompt?: string;
  write: (text: string) => void;
  /** The early frame the command line painted (boot_frame.ts); the App takes its place. */
  frame?: BootFrame;
}

/**
 * Runs the interactive session. Returns the error code of a failure it has already shown (a failed
 * turn in line mode, a cancelled setup), null when all went well; a failure to start is thrown.
 */
export async function runTui(options: TuiOptions): Promise<string | null> {
  try {
    return await startTui(options);
  } catch (error) {
    options.frame?.remove();
    throw error;
  }
}

async function startTui(options: TuiOptions): Promise<string | null> {
  const env = processEnv();
  const paths = resolvePaths(env);
  const boot = { ...options.boot, env, paths };
  setLanguage(detectLanguage(env));
  const workspace = await existingDir(resolve(boot.cwd, boot.dir ?? "."), "--dir");
  if (!options.lineMode && await needsSetup({ workspace, paths, env })) {
    options.frame?.remove();
    const { runSetupWizard } = await import("./setup/wizard.ts");
    if (!await runSetupWizard({ workspace, paths, env })) return "setup.cancelled";
  }
  const first = options.firstPrompt ? { firstPrompt: options.firstPrompt } : {};
  if (options.lineMode) {
    const asksApprovals = Deno.stdin.isTerminal();
    return await runLineMode({
      boot,
      input: Deno.stdin.readable,
      write: options.write,
      asksApprovals,
      ...first,
    });
  }
  const history = await openInputHistory(paths, workspace);
  const frame = options.frame ?? paintBootFrame(env);
  if (!options.pickSession) {
    return await runInk(boot, { env, history, frame }, options.firstPrompt, options.write);
  }
  const { resume: _latest, ...fresh } = boot;
  return await runInk(fresh, { env, history, frame }, "/resume", options.write);
}

async function runInk(
  boot: Omit<BootOptions, "headless">,
  face: { env: Record<string, string>; history: HistoryPort; frame: BootFrame },
  startWith: string | undefined,
  write: (text: string) => void,
): Promise<string | null> {
  // The first frame is on screen; keys typed from then on wait in the terminal for the App.
  const { env, history, frame } = face;
  // The Controller boots while the shell's modules load: its file reads and probes wait on the disk and
  // on child processes while the shell compiles. Tools, MCP servers and git get the environment the boot
  // was given (clearEnv), so never the NODE_ENV the loader sets meanwhile; only the sandbox probe
  // (`bwrap … true`) inherits the process's.
  const booting = bootController({ ...boot, headless: false, switchable: true });
  const [shell, controller] = await Promise.all([loadInkShell(), booting]).catch(async (error) => {
    frame.remove();
    await (await booting.catch(() => undefined))?.close();
    throw error;
  });
  setLanguage(detectLanguage(env, controller.uiSettings.language));
  // `@` completes workspace paths and the resources (and templates) of connected MCP servers.
  const files =
    async () => [...await controller.listWorkspaceFiles(), ...await mcpMentionTargets(controller.mcp)];
  const props = { controller, history, env, files, ...(startWith ? { startWith } : {}) };
  frame.clear();
  const app = shell.mountApp(props);
  let stopped: StopSignal | null = null;
  // Unmounting gives the terminal back; the turn then ends as for Ctrl+C and the session closes below.
  const removeSignals = onTuiStopSignals((signal) => {
    stopped = signal;
    controller.interrupt(signal);
    app.unmount();
  });
  let written = false;
  try {
    await app.waitUntilExit();
    written = controller.sessionWritten;
  } finally {
    controller.interrupt(stopped ?? "SIGINT");
    await settle(() => controller.busy);
    await controller.close();
    removeSignals();
  }
  return farewell(controller, { written, stopped }, write);
}

/** The closing lines; a terminal that hung up takes no more text. */
function farewell(
  controller: { sessionId: string },
  end: { written: boolean; stopped: StopSignal | null },
  write: (text: string) => void,
): string | null {
  const stop = end.stopped ? stopError(end.stopped) : null;
  if (end.stopped === "SIGHUP") return stop!.code;
  try {
    if (stop) write(`${stop.message}\n`);
    if (end.written) write(`${t("app.exit_continue", { session: controller.sessionId })}\n`);
  } catch {
    // The terminal is gone; the session is saved all the same.
  }
  return stop?.code ?? null;
}
