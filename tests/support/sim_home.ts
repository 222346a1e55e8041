/**
 * @module
 * The set-up of the CLI tests: the DeepSeek simulator, a Reasonix home that points at it and a workspace
 * with one file (or the files given); the simulator is closed and the directories removed after the body.
 */
import { DeepSeekSim, type Responder, type ScriptedReply } from "./deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "./cli.ts";

export interface SimHome {
  sim: DeepSeekSim;
  home: string;
  ws: string;
}

export interface SimHomeOptions {
  /** More config.toml for the home. */
  extraToml?: string;
  /** The workspace's files (default a README.md). */
  files?: Record<string, string>;
  /** Makes the home instead (default `makeHome`). */
  makeHome?: (simUrl: string) => Promise<string>;
}

export async function withSimHome(
  script: ScriptedReply[] | Responder,
  body: (ctx: SimHome) => Promise<void>,
  options: SimHomeOptions = {},
): Promise<void> {
  const sim = await DeepSeekSim.start({ script });
  const home = options.makeHome ? await options.makeHome(sim.url) : await makeHome({
    simUrl: sim.url,
    ...(options.extraToml !== undefined ? { extraToml: options.extraToml } : {}),
  });
  const ws = await makeWorkspace(options.files ?? { "README.md": "# fixture\n" });
  try {
    await body({ sim, home, ws });
  } finally {
    await sim.close();
    await removeAll(home, ws);
  }
}
