/**
 * @module
 * Every child process goes through a Sandbox. `none.ts` runs commands directly; the bubblewrap
 * implementation arrives with the sandbox issue behind the same interface.
 */

export interface RunOptions {
  cwd: string;
  signal: AbortSignal;
  timeoutMs: number;
  /** Cap on the bytes of combined output kept (head and tail are preserved). */
  maxOutputBytes: number;
  env?: Record<string, string>;
  stdin?: string;
}

export interface RunResult {
  /** stdout and stderr interleaved in arrival order. */
  output: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Bytes dropped from the middle of the output to respect `maxOutputBytes`. */
  droppedBytes: number;
}

export interface Sandbox {
  readonly name: string;
  /** Run `command` through a shell (`bash -c` on Unix). */
  runShell(command: string, options: RunOptions): Promise<RunResult>;
  /** Run an executable with an argument vector, no shell (e.g. `rg` for the search tools). */
  runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult>;
}
