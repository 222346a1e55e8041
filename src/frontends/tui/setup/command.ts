/**
 * @module
 * `reasonix setup [path]`: the wizard, lazily loaded so other commands do not pay for the prompts.
 */
import { resolve } from "node:path";
import { launchDirectory, processEnv, resolvePaths } from "../../../config/paths.ts";

export async function setupCmd(path: string | undefined): Promise<number> {
  const workspace = resolve(launchDirectory(), path ?? ".");
  const env = processEnv();
  const { runSetupWizard } = await import("./wizard.ts");
  const done = await runSetupWizard({ workspace, paths: resolvePaths(env), env });
  return done ? 0 : 1;
}
