/**
 * `deno task bench`: runs the same scripted sessions with our CLI and with the Go Reasonix
 * (`npm i reasonix@1.38.11`, installed into bench/ on first use) against the DeepSeek simulator,
 * side by side, and prints wall time, peak RSS, requests, prompt tokens (DeepSeek V3's tokenizer, in the
 * simulator), cache hit ratio and the first request's tokens by part (system, tools, context); then times
 * our tools in-process (scripts/_bench_tools.ts), then the TUIs (scripts/bench_tui.ts: first paint; the
 * long streamed answer only with BENCH_ONLY=tui or BENCH_TUI_TOKENS); first of all the start-up figures
 * (scripts/_bench_startup.ts: `--version`, `run "say ok"`, TUI first paint, interleaved with Go,
 * BENCH_STARTUP_RUNS runs, default 9). `BENCH_ONLY=startup|sessions|tools|tui` runs one section
 * (`sessions` ends with how long `session list` takes with 5,000 sessions; `session-list` runs only that);
 * `recall` (scripts/_bench_recall.ts) runs the 300-turn recall session with both CLIs and prints cost and
 * cache hit ratio around each compaction. `BENCH_DUMP=<dir>` writes every request body and its usage there as JSON lines. `size`
 * (scripts/_bench_size.ts) compiles offline and prints the binary's payload beside the Go binary.
 * Figures are printed, never asserted.
 */
import { join, resolve } from "node:path";
import { type Contender, type Figures, measure } from "./_bench_sessions.ts";
import { SCENARIOS } from "./_bench_scenarios.ts";
import { median, runToolBenches } from "./_bench_tools.ts";
import { GO_VERSION, goBinary } from "./_bench_go.ts";
import { runSessionListBench } from "./_bench_session_list.ts";
import { LAZY_IMPORTS_FLAG } from "../src/control/fence.ts";

const ROOT = resolve(import.meta.dirname!, "..");
const RUNS = Number(Deno.env.get("BENCH_RUNS") ?? "3");
const SECTIONS = ["startup", "sessions", "session-list", "recall", "tools", "tui", "size"] as const;

function hitRatio(f: Figures): number {
  return f.promptTokens > 0 ? f.hitTokens / f.promptTokens : 0;
}

function idealRatio(f: Figures): number {
  return f.idealHitTokens > 0 ? f.hitTokens / f.idealHitTokens : 1;
}

const COLUMNS = ["tool".padEnd(22), "wall".padStart(9), "rss".padStart(7), "reqs", "prompt".padStart(8)]
  .concat(["hit".padStart(7), "÷ideal".padStart(7), "cost".padStart(11), "status"]);

function row(name: string, runs: Figures[]): string {
  const last = runs.at(-1)!;
  const failures = runs.reduce((sum, r) => sum + r.failures, 0);
  return [
    name.padEnd(22),
    `${median(runs.map((r) => r.wallMs)).toFixed(0)} ms`.padStart(9),
    `${median(runs.map((r) => r.peakRssMb)).toFixed(0)} MB`.padStart(7),
    String(last.requests).padStart(4),
    String(last.promptTokens).padStart(8),
    `${(100 * hitRatio(last)).toFixed(1)}%`.padStart(7),
    idealRatio(last).toFixed(3).padStart(7),
    `¥${last.cost.toFixed(6)}`.padStart(11),
    failures === 0 ? "ok" : `${failures} failed turns`,
  ].join("  ");
}

async function main() {
  const only = Deno.env.get("BENCH_ONLY") ?? "";
  if (only !== "" && !(SECTIONS as readonly string[]).includes(only)) {
    console.error(`Unknown BENCH_ONLY "${only}": use ${SECTIONS.map((s) => `"${s}"`).join(" or ")}`);
    Deno.exit(2);
  }
  if (only === "" || only === "startup") {
    const runs = Number(Deno.env.get("BENCH_STARTUP_RUNS") ?? "9");
    await (await import("./_bench_startup.ts")).runStartupBenches({ runs });
  }
  if (only === "" || only === "sessions") await runSessionBenches();
  if (only === "" || only === "sessions" || only === "session-list") {
    await runSessionListBench({ runs: RUNS });
  }
  if (only === "" || only === "recall") {
    await (await import("./_bench_recall.ts")).runRecallBench(contenders(await goBinary()));
  }
  if (only === "" || only === "tools") await runToolBenches({ runs: RUNS });
  if (only === "" || only === "tui") {
    const stream = only === "tui" || Deno.env.get("BENCH_TUI_TOKENS") !== undefined;
    await (await import("./bench_tui.ts")).runTuiBenches({ runs: RUNS, stream });
  }
  if (only === "" || only === "size") await (await import("./_bench_size.ts")).runSizeBench();
}

function contenders(go: string | null): Contender[] {
  const ours: Contender = {
    name: "reasonix (deno)",
    command: (task, continued) => [
      Deno.execPath(),
      "run",
      "--no-prompt",
      "-A",
      LAZY_IMPORTS_FLAG,
      join(ROOT, "main.ts"),
      "run",
      ...(continued ? ["-c"] : []),
      "--permission-mode",
      "auto",
      "--output-format",
      "json",
      task,
    ],
  };
  if (!go) return [ours];
  return [ours, {
    name: `reasonix (go ${GO_VERSION})`,
    command: (task, continued) => [go, "run", ...(continued ? ["-c"] : []), "--output-format", "json", task],
  }];
}

async function runSessionBenches() {
  const go = await goBinary();
  if (!go) console.error("The Go Reasonix could not be installed: only our CLI is measured");
  const all = contenders(go);
  console.log(
    `runs per contender: ${RUNS} (median wall time and RSS; tokens from the last run; ` +
      `tokens by DeepSeek V3's tokenizer; cost at peak deepseek-flash prices; ` +
      `÷ideal = hits ÷ a perfect prepend-only client's hits; first request: prompt tokens by part, ` +
      `tools (count))`,
  );
  const totals = new Map<string, Figures[]>();
  for (const scenario of SCENARIOS) {
    console.log(`\n## ${scenario.name} (${scenario.turns.length} user turns)`);
    console.log(COLUMNS.join("  "));
    const figures = new Map<string, Figures[]>();
    for (const contender of all) {
      const runs: Figures[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await measure(contender, scenario));
      figures.set(contender.name, runs);
      totals.set(contender.name, [...(totals.get(contender.name) ?? []), runs.at(-1)!]);
      console.log(row(contender.name, runs));
    }
    printRatios(figures, all.map((c) => c.name));
    printFirstRequests(figures);
  }
  printTotals(totals);
}

/** The first request of the session, by part: it is all cache misses, so it decides a short session's cost. */
function printFirstRequests(figures: Map<string, Figures[]>) {
  console.log(
    ["first request".padEnd(22), "system".padStart(7), "tools".padStart(12), "context".padStart(8)]
      .concat(["total".padStart(7)]).join("  "),
  );
  for (const [name, runs] of figures) {
    const first = runs.at(-1)!.firstRequest;
    console.log(
      [
        name.padEnd(22),
        String(first.system).padStart(7),
        `${first.tools} (${first.toolCount})`.padStart(12),
        String(first.context).padStart(8),
        String(first.total).padStart(7),
      ].join("  "),
    );
  }
}

function printTotals(totals: Map<string, Figures[]>) {
  console.log("\n## total over the scenarios (last runs)");
  const costs = [...totals].map(([name, list]) => {
    const sum = (f: (r: Figures) => number) => list.reduce((total, r) => total + f(r), 0);
    const cost = sum((r) => r.cost);
    const hits = sum((r) => r.hitTokens);
    const ideal = sum((r) => r.idealHitTokens);
    const worst = Math.min(...list.map(idealRatio));
    console.log(
      `${name.padEnd(22)}  prompt ${sum((r) => r.promptTokens)}  cost ¥${cost.toFixed(6)}  ` +
        `hit/ideal ${(ideal > 0 ? hits / ideal : 1).toFixed(3)} (worst ${worst.toFixed(3)})`,
    );
    return cost;
  });
  if (costs.length === 2) console.log(`total cost ours/go: ${(costs[0]! / costs[1]!).toFixed(3)}x`);
}

function printRatios(figures: Map<string, Figures[]>, names: string[]) {
  if (names.length < 2) return;
  const a = figures.get(names[0]!)!;
  const b = figures.get(names[1]!)!;
  const ratio = (f: (r: Figures) => number) => (median(a.map(f)) / median(b.map(f))).toFixed(2);
  console.log(
    `ratio ours/go: wall ${ratio((r) => r.wallMs)}x, rss ${ratio((r) => r.peakRssMb)}x, ` +
      `prompt tokens ${ratio((r) => r.promptTokens)}x, hit ratio ${ratio(hitRatio)}x, cost ${
        ratio((r) => r.cost)
      }x`,
  );
}

if (import.meta.main) await main();
