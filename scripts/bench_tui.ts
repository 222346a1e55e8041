/**
 * @module
 * TUI benches (`BENCH_ONLY=tui deno task bench`, or `deno run -A scripts/bench_tui.ts`), ours side by side
 * with the Go Reasonix in tmux against the DeepSeek simulator:
 * - first paint: start to input prompt, median/p90 over BENCH_RUNS (always);
 * - a BENCH_TUI_TOKENS-token (default 20000) streamed Markdown answer at 200 tokens/s and at full speed,
 *   BENCH_TUI_RUNS runs each (default BENCH_RUNS), only when asked for (`stream`; `BENCH_TUI_RATES=full`
 *   or `=200` keeps one of the two); a run that has not
 *   shown the last line after BENCH_TUI_TIMEOUT_S (default: the stream's duration + 120 s) reports how far
 *   it got, and is not repeated;
 * - the rendering path alone, in-process, as the app drives it (always).
 * Method and figures: docs/PERFORMANCE.md. Printed, never asserted.
 */
import { median } from "./_bench_tools.ts";
import { GO_VERSION, goBinary } from "./_bench_go.ts";
import { benchAnswer } from "./_bench_tui_answer.ts";
import { PANE_SIZE, type TuiContender, tuiContenders } from "./_bench_tui_pane.ts";
import { measureFirstPaint } from "./_bench_tui_paint.ts";
import { measureStream, type StreamFigures } from "./_bench_tui_stream.ts";
import { percentile } from "./_bench_tui_proc.ts";
import { streamInto } from "./_bench_tui_render.ts";

export interface TuiBenchOptions {
  runs: number;
  /** Also stream the long answer through the real apps (~100 s per run per CLI at 200 tok/s). */
  stream: boolean;
}

const RATES = [["200 tok/s", 200], ["full speed", null]] as const;

function ms(value: number): string {
  return `${value.toFixed(0)} ms`;
}

async function firstPaintSection(contenders: TuiContender[], runs: number): Promise<void> {
  console.log(`\n## TUI first paint (start → input prompt on screen, ${runs} runs after one untimed start)`);
  console.log(`${"tool".padEnd(22)}  ${"median".padStart(8)}  ${"p90".padStart(8)}  ${"rss".padStart(7)}`);
  const medians: number[] = [];
  for (const contender of contenders) {
    const figures = await measureFirstPaint(contender, runs);
    const times = figures.map((f) => f.ms);
    medians.push(median(times));
    console.log(
      `${contender.name.padEnd(22)}  ${ms(median(times)).padStart(8)}  ${
        ms(percentile(times, 0.9)).padStart(8)
      }  ${`${median(figures.map((f) => f.rssMb)).toFixed(0)} MB`.padStart(7)}`,
    );
  }
  if (medians.length > 1) console.log(`ratio ours/go: ${(medians[0]! / medians.at(-1)!).toFixed(2)}x`);
}

function streamRow(name: string, runs: StreamFigures[], total: number): string {
  const echoes = runs.map((r) => r.echoMs).filter((e): e is number => e !== null);
  const unfinished = runs.find((r) => !r.finished);
  if (unfinished) {
    return `${name.padEnd(22)}  unfinished: ${unfinished.shownTokens} of ${total} tokens on screen after ${
      (unfinished.wallMs / 1000).toFixed(0)
    } s (trail p50 ${unfinished.trailP50}, p95 ${unfinished.trailP95}; echo ${
      unfinished.echoMs === null ? "n/a" : ms(unfinished.echoMs)
    }; rss ${unfinished.rssMb.toFixed(0)} MB)`;
  }
  return [
    name.padEnd(22),
    `${(median(runs.map((r) => r.wallMs)) / 1000).toFixed(2)} s`.padStart(9),
    ms(median(runs.map((r) => r.lagMs))).padStart(9),
    String(median(runs.map((r) => r.trailP50))).padStart(9),
    String(median(runs.map((r) => r.trailP95))).padStart(9),
    (echoes.length ? ms(median(echoes)) : "n/a").padStart(8),
    `${median(runs.map((r) => r.rssMb)).toFixed(0)} MB`.padStart(7),
  ].join("  ");
}

/** BENCH_TUI_TIMEOUT_S, or the stream's own duration plus two minutes. */
function timeoutFor(tokens: number, rate: number | null): number {
  const given = Deno.env.get("BENCH_TUI_TIMEOUT_S");
  if (given !== undefined) return Number(given) * 1000;
  return ((rate === null ? 0 : tokens / rate) + 120) * 1000;
}

async function streamSection(contenders: TuiContender[], runs: number): Promise<void> {
  const tokens = Number(Deno.env.get("BENCH_TUI_TOKENS") ?? 20_000);
  const answer = benchAnswer(tokens);
  const only = Deno.env.get("BENCH_TUI_RATES");
  const rates = RATES.filter(([, rate]) =>
    !only || only.split(",").includes(rate === null ? "full" : `${rate}`)
  );
  for (const [label, rate] of rates) {
    console.log(
      `\n## TUI: ${answer.tokens}-token Markdown answer at ${label} (${PANE_SIZE.join("x")} tmux pane, ` +
        `median of ${runs}; trail in tokens, sampled every 25 ms)`,
    );
    console.log(
      ["tool".padEnd(22), "wall".padStart(9), "lag".padStart(9), "trail p50", "trail p95", "echo".padStart(8)]
        .concat(["rss".padStart(7)]).join("  "),
    );
    const walls: number[] = [];
    for (const contender of contenders) {
      try {
        const timeoutMs = timeoutFor(answer.tokens, rate);
        const figures = await measureStream(contender, { answer, tokensPerSecond: rate, runs, timeoutMs });
        if (figures.every((f) => f.finished)) walls.push(median(figures.map((f) => f.wallMs)));
        console.log(streamRow(contender.name, figures, answer.tokens));
      } catch (error) {
        console.log(
          `${contender.name.padEnd(22)}  n/a: ${
            error instanceof Error ? error.message.split("\n")[0] : error
          }`,
        );
      }
    }
    if (walls.length === contenders.length && walls.length > 1) {
      console.log(`ratio ours/go: wall ${(walls[0]! / walls.at(-1)!).toFixed(2)}x`);
    }
  }
}

async function renderPathSection(): Promise<void> {
  const tokens = Number(Deno.env.get("BENCH_TUI_TOKENS") ?? 20_000);
  const { text } = benchAnswer(tokens);
  console.log(
    `\n## TUI render path: ${tokens}-token Markdown answer, state + transcript pane, Ink to an in-memory 100x40 terminal`,
  );
  const only = Deno.env.get("BENCH_TUI_RATES");
  const rates = RATES.filter(([, rate]) =>
    !only || only.split(",").includes(rate === null ? "full" : `${rate}`)
  );
  for (const [label, rate] of rates) {
    const f = await streamInto(text, rate);
    console.log(
      `${label.padEnd(10)}  wall ${(f.wallMs / 1000).toFixed(2)}s  cpu ${
        (f.cpuMs / 1000).toFixed(2)
      }s  frames ${f.frames}  ` +
        `render p50 ${f.p50.toFixed(2)}ms p99 ${f.p99.toFixed(2)}ms max ${
          f.max.toFixed(1)
        }ms  late frames (>33ms) ` +
        `${f.late}  written ${(f.written / 1024).toFixed(0)} KB  peak RSS ${f.peakRssMb.toFixed(0)} MB`,
    );
  }
}

export async function runTuiBenches(options: TuiBenchOptions): Promise<void> {
  const go = await goBinary();
  if (!go) console.error("The Go Reasonix could not be installed: only our CLI is measured");
  const contenders = tuiContenders(go, GO_VERSION);
  await firstPaintSection(contenders, options.runs);
  if (options.stream) {
    await streamSection(contenders, Number(Deno.env.get("BENCH_TUI_RUNS") ?? options.runs));
  }
  await renderPathSection();
}

if (import.meta.main) {
  await runTuiBenches({ runs: Number(Deno.env.get("BENCH_RUNS") ?? "3"), stream: true });
}
