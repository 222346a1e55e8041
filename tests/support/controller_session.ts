/**
 * @module
 * A real Controller over the DeepSeek simulator, in a temp home and workspace: the set-up most
 * Controller tests share. `withController` boots it, records its events and cleans up after the body.
 */
import { bootController, type BootOptions, type ResumeRequest } from "../../src/control/boot.ts";
import type { ReasonixEvent } from "../../src/control/events.ts";
import { resolvePaths } from "../../src/config/paths.ts";
import { DeepSeekSim, type Responder, type ScriptedReply, type SimOptions } from "./deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "./cli.ts";
import { hostEnv } from "./host_env.ts";

export type Controller = Awaited<ReturnType<typeof bootController>>;

export interface ControllerOptions extends Partial<Omit<BootOptions, "cwd" | "paths">> {
  /** The simulator's replies, in order. */
  script?: ScriptedReply[] | Responder;
  /** The simulator's other options. */
  sim?: Omit<SimOptions, "script">;
  /** The workspace's files (default none). */
  files?: Record<string, string>;
  /** More config.toml for the home (or made from the simulator's URL). */
  extraToml?: string | ((simUrl: string) => string);
  /**
   * Subscribe to the controller, as an attached face does (default true): `events` records what it
   * emits. False leaves it unattended, so nobody can answer an approval or a question.
   */
  listen?: boolean;
  /** Runs on the home and workspace before the controller boots. */
  prepare?: (dirs: { home: string; ws: string }) => Promise<void>;
}

export interface ControllerSession {
  sim: DeepSeekSim;
  /** The controller now open (a new one after `reboot`). */
  readonly controller: Controller;
  /** Every event the controller emitted, in order (none unless it listens). */
  events: ReasonixEvent[];
  home: string;
  ws: string;
  /** Boots another controller over the same home and workspace (the caller closes it). */
  boot(change?: Partial<BootOptions>): Promise<Controller>;
  /** Closes the controller and resumes its session in a new one, which `controller` then is. */
  reboot(): Promise<Controller>;
}

/** The options `bootController` gets for a home and workspace (headless, empty env, unless told). */
export function bootOptions(home: string, ws: string, change: Partial<BootOptions> = {}): BootOptions {
  return { cwd: ws, headless: true, env: {}, paths: resolvePaths({ REASONIX_HOME: home }), ...change };
}

export async function withController(
  options: ControllerOptions,
  body: (session: ControllerSession) => Promise<void>,
): Promise<void> {
  const { script, sim: simOptions, files, extraToml, listen, prepare, ...boot } = options;
  const sim = await DeepSeekSim.start({ ...simOptions, script: script ?? [] });
  const toml = typeof extraToml === "function" ? extraToml(sim.url) : extraToml;
  const home = await makeHome({ simUrl: sim.url, ...(toml ? { extraToml: toml } : {}) });
  const ws = await makeWorkspace(files ?? {});
  const events: ReasonixEvent[] = [];
  const again = (change: Partial<BootOptions> = {}) =>
    bootController(bootOptions(home, ws, { ...boot, ...change }));
  const open = async (change?: Partial<BootOptions>) => {
    const booted = await again(change);
    if (listen ?? true) booted.subscribe((event) => events.push(event));
    return booted;
  };
  let controller: Controller | undefined;
  try {
    await prepare?.({ home, ws });
    let current = controller = await open();
    await body({
      sim,
      get controller() {
        return current;
      },
      events,
      home,
      ws,
      boot: again,
      async reboot() {
        controller = undefined;
        await current.close();
        current = controller = await open({ resume: { kind: "latest" } });
        return current;
      },
    });
  } finally {
    await controller?.close();
    await sim.close();
    await removeAll(home, ws);
  }
}

export interface BootingSession {
  sim: DeepSeekSim;
  home: string;
  ws: string;
  /** Every event of every controller booted, in order. */
  events: ReasonixEvent[];
  /** Boots a controller (resuming when told), closed after the body; it records its events when it listens. */
  boot(resume?: ResumeRequest): Promise<Controller>;
}

/**
 * The simulator, a home and a workspace for a body that boots its controllers itself, as a restart
 * test does; they see the host's PATH and HOME.
 */
export async function withBoots(
  options: {
    script: ScriptedReply[] | Responder;
    files?: Record<string, string>;
    extraToml?: string;
    boot: Partial<BootOptions>;
    /** Subscribe to each controller, as an attached face does (default true). */
    listen?: boolean;
  },
  body: (session: BootingSession) => Promise<void>,
): Promise<void> {
  const sim = await DeepSeekSim.start({ script: options.script });
  const home = await makeHome({
    simUrl: sim.url,
    ...(options.extraToml ? { extraToml: options.extraToml } : {}),
  });
  const ws = await makeWorkspace(options.files ?? {});
  const env = hostEnv();
  const opened: Controller[] = [];
  const events: ReasonixEvent[] = [];
  const boot = async (resume?: ResumeRequest) => {
    const controller = await bootController(
      bootOptions(home, ws, { env, ...options.boot, ...(resume ? { resume } : {}) }),
    );
    if (options.listen ?? true) controller.subscribe((event) => events.push(event));
    opened.push(controller);
    return controller;
  };
  try {
    await body({ sim, home, ws, events, boot });
  } finally {
    for (const controller of opened) await controller.close();
    await sim.close();
    await removeAll(home, ws);
  }
}
