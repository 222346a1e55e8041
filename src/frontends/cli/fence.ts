/**
 * @module
 * Decides whether this invocation re-runs itself under the Deno fence: only agent sessions (`run`, `review`,
 * `subagent try|run`, `serve`, `acp` and the TUI), only when Deno was started with broad permissions
 * (`deno task start`, `-A`), never twice, never in a compiled binary (its flags are baked in), and not with
 * REASONIX_NO_FENCE=1.
 */
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { processEnv, resolvePaths, takeProcessEnv } from "../../config/paths.ts";
import { FENCE_PARENT_ENV, FENCED_ENV, NO_FENCE_ENV } from "../../lib/fence_env.ts";
import { watchParent } from "../../sandbox/parent_watch.ts";
import { killChildrenAndExit } from "../../sandbox/children.ts";

const FENCED_COMMANDS = new Set(["run", "review", "serve", "acp"]);
/** `reasonix subagent try|run` start a session (the others only edit files). */
const FENCED_SUBAGENT = new Set(["try", "run"]);
const VALUE_OPTIONS = new Set(["--dir", "--add-dir", "--trajectory", "--metrics", "--addr", "--port-file"]);
/** Options that print and exit before any session starts; they gain nothing from the fence. */
const INFO_OPTIONS = new Set(["-h", "--help", "-V", "--version"]);

/** The exit status of a fenced child whose parent died; nobody is left to read it. */
const ORPHANED_EXIT = 129;

/** The child's exit code when this call re-ran under the fence, null when the caller should go on. */
export async function maybeFence(args: string[], cwd: string): Promise<number | null> {
  const parent = Number(takeProcessEnv(FENCE_PARENT_ENV));
  const env = processEnv();
  if (env[FENCED_ENV] === "1") {
    // Dies with its parent: it kills its own children and exits without finishing the turn or printing.
    if (parent > 0) watchParent(parent, () => killChildrenAndExit(ORPHANED_EXIT));
    return null;
  }
  if (env[NO_FENCE_ENV] === "1") return null;
  if (!fencedSession(args) || !broadPermissions() || !runByDeno()) return null;
  const options = valueOptions(args.slice(1));
  // Loaded only here, and not through control/mod.ts: this parent only computes flags and waits, so it
  // never loads the Controller its child loads.
  const { runFenced } = await import("../../control/fence.ts");
  return await runFenced(
    {
      cwd,
      ...(options.get("--dir") ? { dir: options.get("--dir")!.at(-1)! } : {}),
      addDirs: options.get("--add-dir") ?? [],
      outputs: ["--trajectory", "--metrics", "--port-file"].flatMap((name) => options.get(name) ?? []),
      ...(args[0] === "serve" ? { listen: { addr: options.get("--addr")?.at(-1) } } : {}),
      env,
      paths: resolvePaths(env),
      ...(args.includes("--trust-project-mcp") ? { trustProjectMcp: true } : {}),
    },
    {
      execPath: Deno.execPath(),
      mainModule: fileURLToPath(Deno.mainModule),
      args,
      interactive: Deno.stdin.isTerminal(),
    },
  );
}

/** `reasonix run …`, and the interactive TUI: no subcommand, only options (`reasonix --dir x -c`). */
export function fencedSession(args: readonly string[]): boolean {
  const first = args[0];
  if (first === undefined || FENCED_COMMANDS.has(first)) return true;
  if (first === "subagent") {
    return FENCED_SUBAGENT.has(args[1] ?? "") && !args.some((a) => INFO_OPTIONS.has(a));
  }
  if (!first.startsWith("-")) return false;
  const end = args.indexOf("--");
  return !args.slice(0, end < 0 ? undefined : end).some((arg) => INFO_OPTIONS.has(arg));
}

function broadPermissions(): boolean {
  return Deno.permissions.querySync({ name: "write" }).state === "granted" &&
    Deno.permissions.querySync({ name: "run" }).state === "granted";
}

/** `deno run` can take new flags; a compiled binary cannot be re-run with others. */
export function runByDeno(): boolean {
  return /^deno(\.exe)?$/.test(basename(Deno.execPath())) && Deno.mainModule.startsWith("file:");
}

/** `--dir x` and `--dir=x`, up to a `--` that ends the options. */
function valueOptions(args: string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") break;
    const equals = arg.indexOf("=");
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    if (!VALUE_OPTIONS.has(name)) continue;
    const value = equals > 0 ? arg.slice(equals + 1) : args[++i];
    if (value !== undefined) found.set(name, [...found.get(name) ?? [], value]);
  }
  return found;
}
