/**
 * @module
 * React picks its build from `NODE_ENV` when its modules are first evaluated; without it the
 * development build runs, whose checks cost about a third of the CPU time of a streamed answer. The
 * variable is set only while the shell's modules load, so tools and commands never inherit it.
 */
import { withProcessEnv } from "../../config/paths.ts";

export function loadInkShell(): Promise<typeof import("./ink_shell.ts")> {
  return withProcessEnv("NODE_ENV", "production", () => import("./ink_shell.ts"));
}
