/**
 * @module
 * The interactive CLIs the TUI benches compare, each started in its own tmux server with a Reasonix home
 * whose provider points at the simulator, and a screen poller with a fine interval.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { makeHome, makeWorkspace, removeAll } from "../tests/support/cli.ts";
import { shellQuote, TmuxPane } from "../tests/support/tmux.ts";
import { processTree, waitGone } from "./_bench_tui_proc.ts";
import { LAZY_IMPORTS_FLAG } from "../src/control/fence.ts";

const ROOT = resolve(import.meta.dirname!, "..");
export const PANE_SIZE: [number, number] = [100, 40];

export interface TuiContender {
  name: string;
  argv: string[];
  /** What the screen shows once the input prompt is ready for typing. */
  ready: RegExp;
  /**
   * What it shows once the session has booted, when that can come later than `ready` (ours paints its input
   * box first and keeps what is typed until the Controller is up; then its status line names the effort).
   */
  booted?: RegExp;
  /** Config the CLI needs to start without questions. */
  extraToml?: string;
}

export function tuiContenders(go: string | null, goVersion: string): TuiContender[] {
  const deno = (entry: string) => [Deno.execPath(), "run", "--no-prompt", "-A", LAZY_IMPORTS_FLAG, entry];
  const list: TuiContender[] = [{
    name: "reasonix (deno)",
    argv: deno(join(ROOT, "main.ts")),
    ready: /Type a task/,
    booted: /· effort /,
  }];
  const bundle = join(ROOT, "dist", "main.js");
  if (existsSync(bundle)) list.push({ name: "reasonix (bundle)", argv: deno(bundle), ready: /Type a task/ });
  if (go) {
    list.push({
      name: `reasonix (go ${goVersion})`,
      argv: [go],
      // The input prompt and the status line saying "ready"; the first start asks about telemetry.
      ready: /^ ❯[\s\S]*· ready ·/m,
      extraToml: `[telemetry]\ncli_metrics = "off"\n`,
    });
  }
  return list;
}

/** A home and a workspace for one contender, kept across its runs. */
export interface Place {
  home: string;
  workspace: string;
}

export async function makePlace(contender: TuiContender, simUrl: string): Promise<Place> {
  const home = await makeHome({ simUrl, ...(contender.extraToml ? { extraToml: contender.extraToml } : {}) });
  const workspace = await makeWorkspace({ "README.md": "bench fixture\n" });
  return { home, workspace };
}

export function removePlace(place: Place): Promise<void> {
  return removeAll(place.home, place.workspace);
}

function tuiEnv(home: string): Record<string, string> {
  const env: Record<string, string> = { REASONIX_HOME: home, LANG: "en_US.UTF-8", TERM: "xterm-256color" };
  for (const name of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface Launched {
  pane: TmuxPane;
  /** performance.now() just before tmux was asked to start the CLI. */
  startedAt: number;
}

/** Starts the CLI in a fresh tmux server; `exec` makes the pane's pid the CLI's own. */
export async function launch(contender: TuiContender, place: Place): Promise<Launched> {
  const pane = new TmuxPane();
  const env = Object.entries(tuiEnv(place.home)).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const command = `cd ${shellQuote(place.workspace)} && exec env -i ${env.join(" ")} ${
    contender.argv.map(shellQuote).join(" ")
  }`;
  const startedAt = performance.now();
  await pane.start(command, ...PANE_SIZE);
  return { pane, startedAt };
}

export async function panePid(pane: TmuxPane): Promise<number> {
  return Number((await pane.run("list-panes", "-t", "main", "-F", "#{pane_pid}")).trim());
}

/** Kills the tmux server and waits for the CLI's processes to exit, so its home can be removed. */
export async function stop(pane: TmuxPane): Promise<void> {
  const root = await panePid(pane);
  const pids = Number.isFinite(root) && root > 0 ? await processTree(root) : [];
  await pane.kill();
  await waitGone(pids, 5_000);
}

export interface Seen {
  screen: string;
  /** performance.now() when the matching capture was taken. */
  at: number;
}

/** Captures the screen every `intervalMs` until `test` passes; throws after `timeoutMs`. */
export async function pollScreen(
  pane: TmuxPane,
  test: (screen: string) => boolean,
  options: { intervalMs: number; timeoutMs: number },
): Promise<Seen> {
  const deadline = performance.now() + options.timeoutMs;
  let screen = "";
  while (performance.now() < deadline) {
    const at = performance.now();
    screen = await pane.screen();
    if (test(screen)) return { screen, at };
    await new Promise((done) => setTimeout(done, options.intervalMs));
  }
  throw new Error(`The screen never matched within ${options.timeoutMs} ms:\n${screen}`);
}
