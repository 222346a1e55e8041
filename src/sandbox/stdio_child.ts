/**
 * @module
 * A long-lived child spoken to over its stdin and stdout (an MCP stdio server): started from an argument
 * vector without a shell, in its own session so its whole process group can be killed, and registered
 * with children.ts so an emergency exit kills it too. stderr is handed to the caller to keep bounded.
 */
import { adoptChild, signalGroups } from "./children.ts";

export interface StdioChildOptions {
  cwd: string;
  /** The complete environment of the child. */
  env: Record<string, string>;
}

export interface StdioChild {
  readonly pid: number;
  readonly stdin: WritableStream<Uint8Array>;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ exitCode: number | null; signal: string | null }>;
  /** SIGTERM to the group, SIGKILL after `graceMs` if it is still there; settles once it exited. */
  stop(graceMs: number): Promise<void>;
}

/** Throws Deno.errors.NotFound when the executable does not exist. */
export function spawnStdioChild(argv: readonly string[], options: StdioChildOptions): StdioChild {
  const process = adoptChild(
    new Deno.Command(argv[0]!, {
      args: argv.slice(1),
      cwd: options.cwd,
      env: options.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn(),
    { group: true },
  );
  let exited = false;
  const status = process.status.then((status) => {
    exited = true;
    // Whatever the server left running in its group goes with it.
    signalGroups([process.pid], "SIGKILL");
    return { exitCode: status.signal ? null : status.code, signal: status.signal ?? null };
  });
  return {
    pid: process.pid,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    status,
    async stop(graceMs) {
      if (exited) return;
      signalGroups([process.pid], "SIGTERM");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([status, grace]);
      clearTimeout(timer);
      if (!exited) signalGroups([process.pid], "SIGKILL");
      await status;
    },
  };
}
