/**
 * @module
 * Child processes get the user's environment without credentials, whatever sandbox runs them.
 */
import { secretName, secretValue } from "./_secret_env.ts";
import type { RunOptions, RunResult, Sandbox, SpawnedProcess, SpawnOptions } from "./sandbox.ts";

/**
 * Drops `secretNames` (provider keys, `.env` names) always, and every variable whose name or value
 * looks like a credential unless `allow` (`[secrets] env_allow`) names it.
 */
export function scrubEnv(
  env: Record<string, string>,
  secretNames: Iterable<string>,
  allow: Iterable<string> = [],
): Record<string, string> {
  const secrets = new Set(secretNames);
  const allowed = new Set(allow);
  const clean: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (secrets.has(name)) continue;
    if (!allowed.has(name) && (secretName(name) || secretValue(value))) continue;
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
