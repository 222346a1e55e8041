/**
 * @module
 * A directory named on the command line (`--dir`, `--add-dir`, `setup [path]`) as its real path, or the
 * usage error every command gives for one that does not exist.
 */
import { ReasonixError } from "../lib/errors.ts";

export async function existingDir(path: string, flag: string): Promise<string> {
  try {
    const real = await Deno.realPath(path);
    if ((await Deno.stat(real)).isDirectory) return real;
  } catch {
    // reported below
  }
  throw new ReasonixError("usage.bad_dir", `Cannot use "${path}" for ${flag}: not an existing directory`);
}
