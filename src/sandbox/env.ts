/**
 * @module
 * Child processes get the user's environment without credentials, whatever sandbox runs them.
 */
import type { RunOptions, RunResult, Sandbox, SpawnedProcess, SpawnOptions } from "./sandbox.ts";

/** Names that look like credentials (provider keys, bot tokens, cloud secrets) never reach a child. */
const SECRET_PATTERN = /(_API_KEY|_KEY|_TOKEN|_SECRET|_PASSWORD|_CREDENTIALS)$/i;

export function scrubEnv(
  env: Record<string, string>,
  secretNames: Iterable<string>,
): Record<string, string> {
  const secrets = new Set(secretNames);
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (secrets.has(name) || SECRET_PATTERN.test(name)) continue;
    clean[name] = value;
  }
  return clean;
}

/** Points TMPDIR, TMP and TEMP at the session's private temp dir. */
export function withTempEnv(env: Record<string, string>, tempDir: string): Record<string, string> {
  return { ...env, TMPDIR: tempDir, TMP: tempDir, TEMP: tempDir };
}

/**
 * Wraps a sandbox so that every run without an explicit `env` gets `env`; a function is called at each
 * run, so the environment can follow a rotated temp dir.
 */
export function withBaseEnv(
  sandbox: Sandbox,
  env: Record<string, string> | (() => Record<string, string>),
): Sandbox {
  function fill<O extends { env?: Record<string, string> }>(options: O): O {
    return options.env ? options : { ...options, env: typeof env === "function" ? env() : env };
  }
  const wrapped: Sandbox = {
    name: sandbox.name,
    runShell(command: string, options: RunOptions): Promise<RunResult> {
      return sandbox.runShell(command, fill(options));
    },
    runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
      return sandbox.runArgv(argv, fill(options));
    },
  };
  if (sandbox.spawnShell) {
    const spawnShell = sandbox.spawnShell.bind(sandbox);
    wrapped.spawnShell = (command: string, options: SpawnOptions): SpawnedProcess =>
      spawnShell(command, fill(options));
  }
  return wrapped;
}
