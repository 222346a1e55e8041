/**
 * @module
 * Runs this program again as a child with other Deno flags (the fence) and relays stdio, signals and
 * the exit status, so the parent is invisible to the user and to scripts.
 */
import { adoptChild } from "./children.ts";

export interface ReexecOptions {
  execPath: string;
  /** Everything after the Deno executable: `run`, flags, the main module and the user's arguments. */
  args: string[];
  env: Record<string, string>;
  /** Forward SIGINT: off when a terminal already delivers Ctrl+C to the whole process group. */
  forwardInterrupt: boolean;
}

const FORWARDED: Deno.Signal[] = ["SIGTERM", "SIGHUP", "SIGQUIT"];

export async function reexec(options: ReexecOptions): Promise<number> {
  const command = new Deno.Command(options.execPath, {
    args: options.args,
    env: options.env,
    clearEnv: true,
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  });
  const child = adoptChild(command.spawn(), { group: false });
  const remove = relaySignals(child, options.forwardInterrupt);
  try {
    const status = await child.status;
    return status.signal ? 128 + signalNumber(status.signal) : status.code;
  } finally {
    remove();
  }
}

function relaySignals(child: Deno.ChildProcess, forwardInterrupt: boolean): () => void {
  if (Deno.build.os === "windows") return () => {};
  const listeners: [Deno.Signal, () => void][] = [];
  for (const signal of [...FORWARDED, "SIGINT" as const]) {
    const forward = signal !== "SIGINT" || forwardInterrupt;
    // Even unforwarded, SIGINT needs a listener: the parent must outlive the child to relay its status.
    const listener = () => {
      if (!forward) return;
      try {
        child.kill(signal);
      } catch {
        // The child is already gone.
      }
    };
    Deno.addSignalListener(signal, listener);
    listeners.push([signal, listener]);
  }
  return () => listeners.forEach(([signal, listener]) => Deno.removeSignalListener(signal, listener));
}

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 };

function signalNumber(signal: string): number {
  return SIGNALS[signal] ?? 0;
}
