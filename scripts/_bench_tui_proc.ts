/**
 * @module
 * Peak RSS of a process tree from /proc (Linux): the largest VmHWM among a process and its descendants,
 * the same figure `/usr/bin/time -f %M` reports for the session benches. Plus the percentiles the TUI
 * benches print.
 */

/** VmHWM (peak resident set) in kB from the text of /proc/<pid>/status; 0 when absent. */
export function parseVmHwmKb(status: string): number {
  return Number(/^VmHWM:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
}

/** The parent pid from the text of /proc/<pid>/stat (the command name may hold spaces and parens). */
export function parsePpid(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[1]);
}

/** `root` and every process below it, from a pid → parent map. */
export function descendants(root: number, parents: Map<number, number>): number[] {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parents) if (parent === tree[i] && !tree.includes(pid)) tree.push(pid);
  }
  return tree;
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return "";
  }
}

async function parentMap(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await readOrEmpty(`/proc/${entry.name}/stat`);
    if (stat) parents.set(Number(entry.name), parsePpid(stat));
  }
  return parents;
}

/** `root` and its live descendants. */
export async function processTree(root: number): Promise<number[]> {
  return descendants(root, await parentMap());
}

function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** Waits until every pid has exited (zombies count as exited); SIGKILLs what is left after `graceMs`. */
export async function waitGone(pids: number[], graceMs: number): Promise<void> {
  const deadline = performance.now() + graceMs;
  while (pids.some(alive) && performance.now() < deadline) {
    await new Promise((done) => setTimeout(done, 20));
  }
  for (const pid of pids.filter(alive)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Exited meanwhile.
    }
  }
}

/** The largest VmHWM in MB over `root` and its descendants (processes still alive). */
export async function treePeakRssMb(root: number): Promise<number> {
  let peak = 0;
  for (const pid of descendants(root, await parentMap())) {
    peak = Math.max(peak, parseVmHwmKb(await readOrEmpty(`/proc/${pid}/status`)));
  }
  return peak / 1024;
}

/** Nearest-rank percentile (p in 0..1) of a non-empty list. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(p * sorted.length));
  return sorted[Math.min(sorted.length, rank) - 1] ?? 0;
}
