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
  /** Keep stderr apart in `RunResult.stderr` (capped at the same size) instead of interleaving it. */
  separateStderr?: boolean;
  /** The tool call this run belongs to, for a runner that shows it there (the editor's terminal). */
  callId?: string;
}

export interface RunResult {
  /** stdout and stderr interleaved in arrival order; stdout alone with `separateStderr`. */
  output: string;
  /** stderr, only with `separateStderr`. */
  stderr?: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** Bytes dropped from the middle of the output to respect `maxOutputBytes`. */
  droppedBytes: number;
  /** Lines of `output` as the child wrote them, before any bytes were dropped. */
  lines: number;
}

export interface SpawnOptions {
  cwd: string;
  env?: Record<string, string>;
}

export interface SpawnStatus {
  exitCode: number | null;
  signal: string | null;
}

/** A long-running child (a background job) whose output the caller must keep reading. */
export interface SpawnedProcess {
  readonly pid: number;
  /** stdout and stderr interleaved in arrival order, each chunk whole UTF-8 characters. */
  readonly output: ReadableStream<Uint8Array>;
  /** Settles once the process has exited, what was left of its group is killed and `output` closed. */
  readonly status: Promise<SpawnStatus>;
  /** Sends `signal` to the whole process group; a no-op once it is gone. */
  kill(signal: Deno.Signal): void;
}

export interface Sandbox {
  readonly name: string;
  /** Run `command` through a shell (`bash -c` on Unix). */
  runShell(command: string, options: RunOptions): Promise<RunResult>;
  /** Run an executable with an argument vector, no shell (e.g. `rg` for the search tools). */
  runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult>;
  /** Start `command` through a shell and return at once; absent when the sandbox cannot run jobs. */
  spawnShell?(command: string, options: SpawnOptions): SpawnedProcess;
}
