/**
 * @module
 * The child processes this process started and has not reaped yet. Every spawn registers its child here
 * (`adoptChild`), so an exit that cannot wait for the normal shutdown (a repeated stop signal, the death
 * of the fence's parent) still leaves nothing behind: `killChildrenNow` kills them all at once. A child
 * started detached leads its own process group (background jobs, bash calls), and the whole group dies.
 */

interface LiveChild {
  process: Deno.ChildProcess;
  /** The child leads its own process group (it was started detached): kill the group. */
  group: boolean;
}

const live = new Set<LiveChild>();

/** Registers `process` until its exit status settles; returns it. */
export function adoptChild(process: Deno.ChildProcess, options: { group: boolean }): Deno.ChildProcess {
  const child = { process, group: options.group };
  live.add(child);
  const forget = () => live.delete(child);
  process.status.then(forget, forget);
  return process;
}

/** How many children are registered now (for tests). */
export function liveChildren(): number {
  return live.size;
}

/**
 * SIGKILL to every registered child and to the group of each detached one, synchronously: the caller is
 * about to exit and must not give the rest of the program a turn of the event loop first.
 */
export function killChildrenNow(): void {
  const children = [...live];
  signalGroupsSync(children.filter((child) => child.group).map((child) => child.process.pid), "SIGKILL");
  for (const child of children) {
    try {
      child.process.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }
}

/**
 * Sends `signal` to each process group, waiting for nothing; a group that is gone is skipped. Under the
 * Deno fence `Deno.kill` needs an unrestricted --allow-run, so the shell's `kill` builtin does it (bash
 * is an allowed executable); that shell is a registered child too.
 */
export function signalGroups(pgids: readonly number[], signal: Deno.Signal): void {
  const rest = signalDirectly(pgids, signal);
  if (rest.length === 0) return;
  try {
    adoptChild(killCommand(rest, signal).spawn(), { group: false }).status.catch(() => {});
  } catch {
    // Nothing left to try: the group outlives this call.
  }
}

/** As `signalGroups`, but returns once the signal was sent. */
export function signalGroupsSync(pgids: readonly number[], signal: Deno.Signal): void {
  const rest = signalDirectly(pgids, signal);
  if (rest.length === 0) return;
  try {
    killCommand(rest, signal).outputSync();
  } catch {
    // Nothing left to try.
  }
}

/** The groups `Deno.kill` could not signal for lack of permission. */
function signalDirectly(pgids: readonly number[], signal: Deno.Signal): number[] {
  const rest: number[] = [];
  for (const pgid of pgids) {
    try {
      Deno.kill(-pgid, signal);
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) rest.push(pgid);
      // Otherwise ESRCH: the group is already gone.
    }
  }
  return rest;
}

function killCommand(pgids: readonly number[], signal: Deno.Signal): Deno.Command {
  return new Deno.Command("bash", {
    args: [
      "-c",
      'kill -s "$0" -- "$@" 2>/dev/null',
      signal.replace(/^SIG/, ""),
      ...pgids.map((p) => `-${p}`),
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  });
}

/** The one exit outside main.ts: after a repeated stop signal or the parent's death, nothing may wait. */
export function killChildrenAndExit(code: number): never {
  killChildrenNow();
  Deno.exit(code);
}
