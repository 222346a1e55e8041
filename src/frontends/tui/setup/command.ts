/**
 * @module
 * `reasonix setup [path]`: the wizard, lazily loaded so other commands do not pay for the prompts.
 */
import { resolve } from "node:path";
import { launchDirectory, processEnv, resolvePaths } from "../../../config/paths.ts";
import { existingDir } from "../../../control/mod.ts";

/**
 * Returns "setup.cancelled" when the person cancelled (the wizard said so), null when setup finished.
 * `project`: `default_model` goes to `<path>/reasonix.toml` instead of the user's config.
 */
export async function setupCmd(path: string | undefined, project = false): Promise<string | null> {
  const workspace = await existingDir(resolve(launchDirectory(), path ?? "."), "reasonix setup [path]");
  const env = processEnv();
  const { runSetupWizard } = await import("./wizard.ts");
  const done = await runSetupWizard({ workspace, paths: resolvePaths(env), env, project });
  return done ? null : "setup.cancelled";
}
