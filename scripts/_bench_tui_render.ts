/**
 * @module
 * The rendering path alone: a Markdown answer streamed into the real transcript components rendered by
 * Ink to an in-memory stdout, paced at 200 tokens/s (one frame per 33 ms, as Ink throttles) or at full
 * speed. Per-frame render time, late frames (render longer than the frame interval) and peak RSS of
 * this process. The answer is the one the tmux benches stream (scripts/_bench_tui_answer.ts).
 */
import { render } from "ink-testing-library";
import { createElement } from "react";
import { TranscriptEntryView } from "../src/frontends/tui/components/transcript.tsx";
import { ThemeContext } from "../src/frontends/tui/components/theme_context.ts";
import { makeTheme } from "../src/frontends/tui/theme.ts";
import { percentile } from "./_bench_tui_proc.ts";
import { TOKEN_CHARS } from "./_bench_tui_answer.ts";

const FRAME_MS = 33;

function peakRssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

export interface RenderFigures {
  wallMs: number;
  frames: number;
  p50: number;
  p99: number;
  max: number;
  late: number;
  peakRssMb: number;
}

export async function streamInto(text: string, tokensPerSecond: number | null): Promise<RenderFigures> {
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
    ? 64 * TOKEN_CHARS
    : Math.round(tokensPerSecond * TOKEN_CHARS * FRAME_MS / 1000);
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
