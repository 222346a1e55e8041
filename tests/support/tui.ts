/**
 * @module
 * Drives the real TUI in tmux against the DeepSeek simulator: a fresh home and workspace per test,
 * `reasonix` started with a clean environment, and everything torn down afterwards.
 */
import { cliEnv, MAIN_TS, makeHome, makeWorkspace, removeAll } from "./cli.ts";
import { DeepSeekSim, type Responder, type ScriptedReply } from "./deepseek_sim.ts";
import { shellQuote, TmuxPane } from "./tmux.ts";

export interface Tui {
  pane: TmuxPane;
  sim: DeepSeekSim;
  home: string;
  workspace: string;
}

export interface TuiOptions {
  size?: [number, number];
  /** Files of the workspace (default: a README.md). */
  files?: Record<string, string>;
  /** Extra environment for the reasonix process. */
  env?: Record<string, string>;
  /** Extra command-line arguments after `main.ts`. */
  args?: string[];
  /** The program to run instead of main.ts (a fixture entry that embeds the CLI). */
  entry?: string;
  /** What the screen must show before the body runs (default: the input placeholder). */
  ready?: RegExp;
  /** More config.toml for the home, given the simulator's URL (a second provider, say). */
  extraToml?: (simUrl: string) => string;
  /** Runs before the TUI starts (an earlier `reasonix run` in the same home, say). */
  before?: (home: string, workspace: string) => Promise<void>;
}

export async function withTui(
  script: ScriptedReply[] | Responder,
  body: (tui: Tui) => Promise<void>,
  options: TuiOptions | [number, number] = {},
): Promise<void> {
  const opts: TuiOptions = Array.isArray(options) ? { size: options } : options;
  const [columns, rows] = opts.size ?? [100, 30];
  const sim = await DeepSeekSim.start({ script });
  const home = await makeHome({
    simUrl: sim.url,
    ...(opts.extraToml ? { extraToml: opts.extraToml(sim.url) } : {}),
  });
  const workspace = await makeWorkspace(opts.files ?? { "README.md": "fixture\n" });
  const pane = new TmuxPane();
  try {
    await opts.before?.(home, workspace);
    await pane.start(tuiCommand(home, workspace, opts), columns, rows);
    await pane.waitFor(opts.ready ?? /Type a task/);
    await body({ pane, sim, home, workspace });
  } finally {
    await pane.kill();
    await sim.close();
    await removeAll(home, workspace);
  }
}

/** The shell command a pane runs: reasonix in `workspace` with a clean environment, then its exit status. */
export function tuiCommand(home: string, workspace: string, opts: TuiOptions = {}): string {
  const env = Object.entries(cliEnv(home, { LANG: "en_US.UTF-8", TERM: "xterm-256color", ...opts.env }))
    .map(([k, v]) => `${k}=${shellQuote(v)}`);
  const args = (opts.args ?? []).map(shellQuote).join(" ");
  return `cd ${shellQuote(workspace)} && env -i ${env.join(" ")} ${
    shellQuote(Deno.execPath())
  } run --no-prompt -A ${shellQuote(opts.entry ?? MAIN_TS)} ${args}; echo TUI-EXIT=$?; sleep 30`;
}
