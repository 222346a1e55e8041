/**
 * @module
 * TUI rendering bench (`BENCH_ONLY=tui deno task bench`): a 20k-token Markdown answer streamed into the
 * real transcript components rendered by Ink to an in-memory stdout, once paced at 200 tokens/s (one
 * frame per 33 ms, as Ink throttles) and once at full speed. Prints wall time, per-frame render time,
 * late frames (render longer than the frame interval) and peak RSS. The app shell's first-paint bench
 * needs the interactive app; until it lands this measures the rendering path only.
 */
import { render } from "ink-testing-library";
import { createElement } from "react";
import { TranscriptEntryView } from "../src/frontends/tui/components/transcript.tsx";
import { ThemeContext } from "../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../src/frontends/tui/theme.ts";

const CHARS_PER_TOKEN = 4;
const FRAME_MS = 33;

function sampleAnswer(tokens: number): string {
  const blocks = [
    "## 第 {n} 部分: design notes\n\nThe renderer keeps **finished blocks** and re-renders the `tail` only; 中文与 English 混排。\n\n",
    "- item one with `code`\n- item two with **bold** text\n- 第三项：宽字符\n\n",
    "```ts\nexport function add(a: number, b: number): number {\n  return a + b; // sum\n}\n```\n\n",
    "| name | 值 |\n|---|---|\n| alpha | 1 |\n| 中文 | 2 |\n\n",
  ];
  let text = "";
  for (let n = 0; text.length < tokens * CHARS_PER_TOKEN; n++) {
    text += blocks[n % blocks.length]!.replace("{n}", String(n));
  }
  return text.slice(0, tokens * CHARS_PER_TOKEN);
}

function peakRssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

interface RenderFigures {
  wallMs: number;
  frames: number;
  p50: number;
  p99: number;
  max: number;
  late: number;
  peakRssMb: number;
}

async function streamInto(text: string, tokensPerSecond: number | null): Promise<RenderFigures> {
  const theme = makeTheme("dark", true);
  const view = (shown: string, streaming: boolean) =>
    createElement(
      ThemeContext.Provider,
      { value: theme },
      createElement(TranscriptEntryView, {
        entry: { kind: "answer", id: "a", text: shown, streaming },
        width: 100,
      }),
    );
  const app = render(view("", true));
  const step = tokensPerSecond === null
    ? 64 * CHARS_PER_TOKEN
    : Math.round(tokensPerSecond * CHARS_PER_TOKEN * FRAME_MS / 1000);
  const times: number[] = [];
  const started = performance.now();
  for (let end = step; end < text.length + step; end += step) {
    const frameStart = performance.now();
    app.rerender(view(text.slice(0, end), end < text.length));
    const spent = performance.now() - frameStart;
    times.push(spent);
    if (tokensPerSecond !== null) {
      await new Promise((done) => setTimeout(done, Math.max(0, FRAME_MS - spent)));
    }
  }
  const wallMs = performance.now() - started;
  app.unmount();
  app.cleanup();
  return {
    wallMs,
    frames: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: Math.max(...times),
    late: times.filter((t) => t > FRAME_MS).length,
    peakRssMb: peakRssMb(),
  };
}

export async function runTuiBenches(
  tokens = Number(Deno.env.get("BENCH_TUI_TOKENS") ?? 20_000),
): Promise<void> {
  const text = sampleAnswer(tokens);
  console.log(`\nTUI render path: ${tokens}-token Markdown answer, width 100, Ink to an in-memory stdout`);
  for (const [label, rate] of [["200 tok/s", 200], ["full speed", null]] as const) {
    const f = await streamInto(text, rate);
    console.log(
      `${label.padEnd(10)}  wall ${(f.wallMs / 1000).toFixed(2)}s  frames ${f.frames}  render p50 ${
        f.p50.toFixed(2)
      }ms ` +
        `p99 ${f.p99.toFixed(2)}ms max ${f.max.toFixed(1)}ms  late frames (>${FRAME_MS}ms) ${f.late}  ` +
        `peak RSS ${f.peakRssMb.toFixed(0)} MB`,
    );
  }
}

if (import.meta.main) await runTuiBenches();
