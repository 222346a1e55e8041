/**
 * @module
 * No isolation: commands run directly as the user. Each child starts in its own session, so a timeout,
 * an abort or the end of the command can kill the whole process group, background jobs included.
 */
import { OutputCollector, pumpUtf8 } from "./_output.ts";
import { adoptChild, signalGroups } from "./children.ts";
import type { RunOptions, RunResult, Sandbox, SpawnedProcess, SpawnOptions, SpawnStatus } from "./sandbox.ts";

/** Time a process group gets to exit after SIGTERM before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** Time to finish reading pipes after the group is killed (a process that left the group may hold them). */
const DRAIN_MS = 1000;
const MAX_TIMER_MS = 2 ** 31 - 1;

export class DirectSandbox implements Sandbox {
  readonly name = "none";

  runShell(command: string, options: RunOptions): Promise<RunResult> {
    return run(["bash", "-c", command], options, ["sh", "-c", command]);
  }

  runArgv(argv: readonly string[], options: RunOptions): Promise<RunResult> {
    if (argv.length === 0 || argv[0] === "") {
      return Promise.reject(new TypeError("Cannot run a command: the argument vector is empty"));
    }
    return run(argv, options);
  }

  spawnShell(command: string, options: SpawnOptions): SpawnedProcess {
    return background(start(["bash", "-c", command], options, ["sh", "-c", command]));
  }
}

/** Starts an argument vector in the background, supervised like `spawnShell` (used by wrapping sandboxes). */
export function spawnArgv(argv: readonly string[], options: SpawnOptions): SpawnedProcess {
  return background(start(argv, options));
}

async function run(
  argv: readonly string[],
  options: RunOptions,
  fallback?: readonly string[],
): Promise<RunResult> {
  if (options.signal.aborted) {
    return {
      output: "",
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: true,
      droppedBytes: 0,
      lines: 0,
    };
  }
  return await supervise(start(argv, options, fallback), options);
}

type StartOptions = Pick<RunOptions, "cwd" | "env" | "stdin">;

function start(
  argv: readonly string[],
  options: StartOptions,
  fallback?: readonly string[],
): Deno.ChildProcess {
  try {
    return spawn(argv, options);
  } catch (error) {
    if (!fallback || !(error instanceof Deno.errors.NotFound)) throw error;
    return spawn(fallback, options);
  }
}

function spawn(argv: readonly string[], options: StartOptions): Deno.ChildProcess {
  const child = new Deno.Command(argv[0]!, {
    args: argv.slice(1),
    cwd: options.cwd,
    ...(options.env ? { env: options.env, clearEnv: true } : {}),
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    // A new session (setsid): the child leads its own process group, which we kill as a whole.
    detached: true,
  }).spawn();
  return adoptChild(child, { group: true });
}

async function supervise(child: Deno.ChildProcess, options: RunOptions): Promise<RunResult> {
  const collector = new OutputCollector(options.maxOutputBytes);
  const errors = options.separateStderr ? new OutputCollector(options.maxOutputBytes) : collector;
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const sinks = [collector, errors];
  const pumps = Promise.all(readers.map((reader, i) => sinks[i]!.pump(reader).catch(() => {})));
  const group = new ProcessGroup(child.pid);
  let timedOut = false;
  let aborted = false;
  const timeoutMs = Math.min(Math.max(0, options.timeoutMs), MAX_TIMER_MS);
  const timer = Number.isFinite(options.timeoutMs)
    ? setTimeout(() => {
      timedOut = true;
      group.terminate();
    }, timeoutMs)
    : undefined;
  function onAbort(): void {
    aborted = true;
    group.terminate();
  }
  options.signal.addEventListener("abort", onAbort, { once: true });
  if (options.signal.aborted) onAbort();
  const stdinDone = writeStdin(child, options.stdin);
  let status: Deno.CommandStatus;
  try {
    status = await child.status;
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
    group.kill();
  }
  await drain(pumps, readers);
  await stdinDone;
  const { output, droppedBytes, lines } = collector.finish();
  const stderr = errors === collector ? {} : { stderr: errors.finish().output };
  return { output, ...stderr, ...exitOf(status), timedOut, aborted, droppedBytes, lines };
}

function exitOf(status: Deno.CommandStatus): SpawnStatus {
  const signal = status.signal ?? null;
  return { exitCode: signal ? null : status.code, signal };
}

/** Streams the output of a child nobody waits on; the group is killed once the shell exits, as in `run`. */
function background(child: Deno.ChildProcess): SpawnedProcess {
  const group = new ProcessGroup(child.pid);
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  let sink!: ReadableStreamDefaultController<Uint8Array>;
  const output = new ReadableStream<Uint8Array>({
    start(controller) {
      sink = controller;
    },
  });
  function push(chunk: Uint8Array): void {
    try {
      sink.enqueue(chunk);
    } catch {
      // The reader cancelled: keep draining the pipes so the child never blocks on a full one.
    }
  }
  const pumps = Promise.all(readers.map((reader) => pumpUtf8(reader, push).catch(() => {})));
  let ended = false;
  const status = child.status.then(async (exit) => {
    group.kill();
    ended = true;
    await drain(pumps, readers);
    try {
      sink.close();
    } catch {
      // Already cancelled by the reader.
    }
    return exitOf(exit);
  });
  return {
    pid: child.pid,
    output,
    status,
    kill(signal) {
      // Once the group is reaped its id may be reused by an unrelated process.
      if (!ended) group.send(signal);
    },
  };
}

class ProcessGroup {
  readonly #pgid: number;
  #escalation: ReturnType<typeof setTimeout> | undefined;

  constructor(pgid: number) {
    this.#pgid = pgid;
  }

  /** SIGTERM now, SIGKILL if the group is still there after the grace period. */
  terminate(): void {
    this.send("SIGTERM");
    this.#escalation ??= setTimeout(() => this.send("SIGKILL"), KILL_GRACE_MS);
  }

  /** Kills whatever is left of the group, e.g. `sleep 100 &` after the shell exited. */
  kill(): void {
    clearTimeout(this.#escalation);
    this.send("SIGKILL");
  }

  send(signal: Deno.Signal): void {
    signalGroups([this.#pgid], signal);
  }
}

async function writeStdin(child: Deno.ChildProcess, stdin: string | undefined): Promise<void> {
  if (stdin === undefined) return;
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  } catch {
    // The child exited without reading all of its input.
  }
}

async function drain(
  pumps: Promise<unknown>,
  readers: ReadableStreamDefaultReader<Uint8Array>[],
): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DRAIN_MS);
  });
  await Promise.race([pumps, deadline]);
  clearTimeout(timer);
  await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
  await pumps;
}
