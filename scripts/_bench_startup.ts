/**
 * @module
 * Start-up figures beside the Go Reasonix (`BENCH_ONLY=startup deno task bench`): `--version`, a headless
 * `run "say ok"` against the simulator, and the TUI's first paint. The two CLIs take turns run by run
 * (interleaved), so load from other work on the machine falls on both alike; one untimed run each first,
 * then `runs` timed ones; medians. Wall time and peak RSS (`/usr/bin/time -f %M`: the largest process, so
 * for ours the fenced child or its parent, whichever is larger). Printed, never asserted.
 */
import { join, resolve } from "node:path";
import { DeepSeekSim } from "../tests/support/deepseek_sim.ts";
import { makeHome, makeWorkspace, removeAll } from "../tests/support/cli.ts";
import { median } from "./_bench_tools.ts";
import { GO_VERSION, goBinary } from "./_bench_go.ts";
import { makePlace, type Place, removePlace, type TuiContender, tuiContenders } from "./_bench_tui_pane.ts";
import { paintOnce } from "./_bench_tui_paint.ts";
import { LAZY_IMPORTS_FLAG } from "../src/control/fence.ts";

const ROOT = resolve(import.meta.dirname!, "..");
const GO_TOML = `[telemetry]\ncli_metrics = "off"\n`;

interface Sample {
  ms: number;
  rssMb: number;
  /** User + system CPU time of the process tree, when known: less moved by load than wall time. */
  cpuMs?: number;
  /** TUI only: until the session has booted, and the peak RSS then. */
  bootedMs?: number;
  bootedRssMb?: number;
}

interface Goal {
  text: string;
  met: (ours: number, go: number) => boolean;
}

const ratioGoal = (limit: number): Goal => ({
  text: `≤ ${limit.toFixed(1)}x`,
  met: (ours, go) => ours / go <= limit,
});

interface Side {
  argv: string[];
  cwd: string;
  home: string;
}

async function timedProcess(side: Side): Promise<Sample> {
  const rssFile = join(side.home, "startup-rss.txt");
  const env: Record<string, string> = { REASONIX_HOME: side.home, NO_COLOR: "1" };
  for (const name of ["PATH", "HOME", "DENO_DIR", "XDG_CACHE_HOME", "LANG"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  const started = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "%M %U %S", "-o", rssFile, ...side.argv],
    cwd: side.cwd,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  if (!out.success) {
    throw new Error(`${side.argv.join(" ")} failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  const last = (await Deno.readTextFile(rssFile)).trim().split("\n").at(-1) ?? "";
  const [rssKb = 0, user = 0, system = 0] = last.split(" ").map(Number);
  return { ms, rssMb: rssKb / 1024, cpuMs: (user + system) * 1000 };
}

/** One untimed call of each, then `runs` rounds of ours, Go; the samples per side. */
async function interleave(
  sides: (() => Promise<Sample>)[],
  runs: number,
): Promise<Sample[][]> {
  for (const side of sides) await side();
  const samples: Sample[][] = sides.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [index, side] of sides.entries()) samples[index]!.push(await side());
  }
  return samples;
}

function ours(args: string[]): string[] {
  return [Deno.execPath(), "run", "--no-prompt", "-A", LAZY_IMPORTS_FLAG, join(ROOT, "main.ts"), ...args];
}

async function processFigures(go: string | null, runs: number): Promise<Map<string, Sample[][]>> {
  const sim = await DeepSeekSim.start({ script: () => ({ content: "ok" }) });
  const homes = [
    await makeHome({ simUrl: sim.url }),
    await makeHome({ simUrl: sim.url, extraToml: GO_TOML }),
  ];
  const cwd = await makeWorkspace({ "README.md": "bench fixture\n" });
  const side = (argv: string[], home: string) => () => timedProcess({ argv, cwd, home });
  try {
    const figures = new Map<string, Sample[][]>();
    for (const [name, args] of [["--version", ["--version"]], ["run", ["run", "say ok"]]] as const) {
      const sides = [side(ours([...args]), homes[0]!)];
      if (go) sides.push(side([go, ...args], homes[1]!));
      figures.set(name, await interleave(sides, runs));
    }
    return figures;
  } finally {
    await sim.close();
    await removeAll(cwd, ...homes);
  }
}

async function paintFigures(go: string | null, runs: number): Promise<Sample[][]> {
  const contenders = tuiContenders(go, GO_VERSION).filter((c) => !c.name.includes("bundle"));
  const sim = await DeepSeekSim.start({ script: () => ({ content: "unused" }) });
  const places: [TuiContender, Place][] = [];
  try {
    for (const contender of contenders) places.push([contender, await makePlace(contender, sim.url)]);
    return await interleave(places.map(([contender, place]) => () => paintOnce(contender, place)), runs);
  } finally {
    for (const [, place] of places) await removePlace(place);
    await sim.close();
  }
}

function printRow(
  figure: string,
  samples: Sample[][],
  pick: (s: Sample) => number,
  unit: string,
  goal: Goal,
) {
  const [ours, go] = samples.map((list) => median(list.map(pick)));
  const cell = (value: number | undefined) => value === undefined ? "n/a" : `${value.toFixed(0)} ${unit}`;
  const ratio = ours !== undefined && go !== undefined ? `${(ours / go).toFixed(2)}x` : "n/a";
  const verdict = ours === undefined || go === undefined || goal.text === ""
    ? ""
    : goal.met(ours, go)
    ? "met"
    : "not met";
  console.log(
    [figure.padEnd(30), cell(ours).padStart(8), cell(go).padStart(8), ratio.padStart(7), goal.text.padEnd(9)]
      .concat([verdict]).join("  "),
  );
}

export async function runStartupBenches(options: { runs: number }): Promise<void> {
  const go = await goBinary();
  if (!go) console.error("The Go Reasonix could not be installed: only our CLI is measured");
  const { runs } = options;
  console.log(
    `\n## start-up (ours: deno task start; go ${GO_VERSION}; interleaved, median of ${runs} after one ` +
      `untimed run each)`,
  );
  console.log(
    ["figure".padEnd(30), "ours".padStart(8), "go".padStart(8), "ratio".padStart(7), "goal"].join("  "),
  );
  const processes = await processFigures(go, runs);
  const version = processes.get("--version")!;
  const absolute: Goal = { text: "≤ 100 ms", met: (ours) => ours <= 100 };
  printRow("--version wall", version, (s) => s.ms, "ms", absolute);
  const none: Goal = { text: "", met: () => true };
  printRow("--version peak RSS", version, (s) => s.rssMb, "MB", none);
  printRow("--version cpu (user+sys)", version, (s) => s.cpuMs ?? 0, "ms", none);
  const run = processes.get("run")!;
  printRow(`run "say ok" wall`, run, (s) => s.ms, "ms", ratioGoal(1.0));
  printRow(`run "say ok" peak RSS`, run, (s) => s.rssMb, "MB", ratioGoal(1.2));
  printRow(`run "say ok" cpu (user+sys)`, run, (s) => s.cpuMs ?? 0, "ms", none);
  const paint = await paintFigures(go, runs);
  printRow("TUI first paint", paint, (s) => s.ms, "ms", ratioGoal(1.2));
  printRow("TUI RSS at first paint", paint, (s) => s.rssMb, "MB", ratioGoal(1.3));
  // Ours paints its input box before the Controller has booted; Go's first paint is already "ready".
  printRow("TUI ready (session booted)", paint, (s) => s.bootedMs ?? s.ms, "ms", none);
  printRow("TUI RSS when ready", paint, (s) => s.bootedRssMb ?? s.rssMb, "MB", none);
}

if (import.meta.main) await runStartupBenches({ runs: Number(Deno.env.get("BENCH_STARTUP_RUNS") ?? "9") });
