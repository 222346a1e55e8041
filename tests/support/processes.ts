/**
 * Finds a command's processes in /proc (Linux): those of its session or process group (spawn it
 * detached: it then leads both), and those whose environment carries a marker variable, which reaches
 * the children it starts in their own sessions (bash calls, background jobs, bubblewrap).
 */

export interface ProcessInfo {
  pid: number;
  /** The state letter of /proc/<pid>/stat: R, S, D, Z, ... */
  state: string;
  pgid: number;
  sid: number;
  command: string;
}

export interface ProcessQuery {
  /** The pid of a detached command: its session id and process group id. */
  leader: number;
  /** A `NAME=value` the command was started with. */
  marker?: string;
}

export function processesOf(query: ProcessQuery): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const info = readProcess(Number(entry.name), query.marker);
    if (!info) continue;
    if (info.process.sid === query.leader || info.process.pgid === query.leader || info.marked) {
      found.push(info.process);
    }
  }
  return found;
}

/** A new `NAME=value` marker to start a command with. */
export function newMarker(): { name: string; value: string; entry: string } {
  const value = crypto.randomUUID();
  return { name: "REASONIX_TEST_MARK", value, entry: `REASONIX_TEST_MARK=${value}` };
}

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function eventually(check: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
  return check();
}

/** A unique six-digit fraction for `sleep N.<tag>`, so `sleepers(tag)` finds this test's sleeps only. */
export function sleepTag(): string {
  return String(Math.floor(Math.random() * 1e6)).padStart(6, "1");
}

/** The pids of the `sleep` processes whose duration ends in `.<tag>`. */
export function sleepers(tag: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const argv = Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).split("\0");
      if (argv[0]?.endsWith("sleep") && argv[1]?.endsWith(`.${tag}`)) found.push(Number(entry.name));
    } catch {
      // It exited meanwhile.
    }
  }
  return found;
}

/** True when the process is gone (or only a zombie waiting for a reaper that is not us). */
export async function isGone(pid: number): Promise<boolean> {
  try {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return true;
    throw error;
  }
}

export function describe(processes: readonly ProcessInfo[]): string {
  return processes.map((p) => `${p.pid} ${p.state} pgid=${p.pgid} sid=${p.sid} ${p.command}`).join("\n");
}

function readProcess(pid: number, marker: string | undefined) {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    // The command name in parentheses may hold spaces and parentheses: split after the last one.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const command = Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ").trim();
    const marked = marker !== undefined &&
      Deno.readTextFileSync(`/proc/${pid}/environ`).split("\0").includes(marker);
    const process = { pid, state: fields[0]!, pgid: Number(fields[2]), sid: Number(fields[3]), command };
    return { process, marked };
  } catch {
    // It exited meanwhile, or it is another user's.
    return null;
  }
}
