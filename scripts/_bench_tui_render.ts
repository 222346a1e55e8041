/**
 * @module
 * The rendering path alone, as the app drives it: a Markdown answer's 4-character deltas batched per
 * frame (`joinDeltas`, as event_batch.ts does) and folded into the TUI state (`reduce`, which settles
 * finished blocks), the transcript pane rendered by Ink (production React, as the app loads it) to an
 * in-memory terminal of 100x40, at 200 tokens/s (one frame per 33 ms) or at full
 * speed (64-token frames back to back). Per-frame render time, late frames (over 33 ms), CPU time, bytes
 * written to the terminal and peak RSS of this process. The answer is the one the tmux benches stream
 * (scripts/_bench_tui_answer.ts).
 */
import { withProcessEnv } from "../src/config/paths.ts";
import { percentile } from "./_bench_tui_proc.ts";
import { TOKEN_CHARS } from "./_bench_tui_answer.ts";

const FRAME_MS = 33;
const SIZE = { columns: 100, rows: 40 };

function peakRssMb(): number {
  const status = Deno.readTextFileSync("/proc/self/status");
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** User plus system CPU time of this process, in ms. */
function cpuMs(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 1000 / 100;
}

export interface RenderFigures {
  wallMs: number;
  cpuMs: number;
  frames: number;
  p50: number;
  p99: number;
  max: number;
  late: number;
  /** Bytes Ink wrote to the terminal. */
  written: number;
  peakRssMb: number;
}

/** A terminal that only counts what is written to it. */
function memoryTerminal() {
  const terminal = {
    ...SIZE,
    isTTY: true,
    written: 0,
    write(chunk: string) {
      terminal.written += chunk.length;
      return true;
    },
    on: () => terminal,
    off: () => terminal,
    once: () => terminal,
    removeListener: () => terminal,
  };
  return terminal;
}

async function loadParts() {
  return await withProcessEnv("NODE_ENV", "production", async () => ({
    ink: await import("ink"),
    react: await import("react"),
    pane: await import("../src/frontends/tui/transcript_pane.tsx"),
    markdown: await (await import("../src/frontends/tui/markdown_loader.ts")).loadMarkdown(),
    theme: await import("../src/frontends/tui/theme.ts"),
    context: await import("../src/frontends/tui/components/theme_context.ts"),
    state: await import("../src/frontends/tui/state.ts"),
    batch: await import("../src/frontends/tui/event_batch.ts"),
  }));
}

export async function streamInto(text: string, tokensPerSecond: number | null): Promise<RenderFigures> {
  const { ink, react, pane, theme, context, state: tui, batch } = await loadParts();
  const colours = theme.makeTheme("dark", true);
  let state = tui.reduce(tui.initialState(), { type: "turn_started", turn: 1, text: "bench" });
  const view = () =>
    react.createElement(
      context.ThemeContext.Provider,
      { value: colours },
      // The transcript as the App lays it out: settled entries in <Static>, then the live ones.
      react.createElement(
        react.Fragment,
        null,
        react.createElement(pane.SettledTranscript, {
          entries: state.entries,
          epoch: 0,
          width: SIZE.columns,
        }),
        react.createElement(pane.LiveTranscript, {
          entries: state.entries,
          live: state.live,
          width: SIZE.columns,
          rows: SIZE.rows,
        }),
      ),
    );
  const stdout = memoryTerminal();
  const app = ink.render(view(), {
    stdout: stdout as unknown as NodeJS.WriteStream,
    interactive: true,
    patchConsole: false,
    exitOnCtrlC: false,
  });
  const step = tokensPerSecond === null
    ? 64 * TOKEN_CHARS
    : Math.round(tokensPerSecond * TOKEN_CHARS * FRAME_MS / 1000);
  const times: number[] = [];
  const started = performance.now();
  const cpuStart = cpuMs();
  for (let start = 0; start < text.length; start += step) {
    const frameStart = performance.now();
    // One frame's deltas of TOKEN_CHARS, as the simulator streams them, batched as the app batches them.
    const deltas = [];
    for (let at = start; at < Math.min(text.length, start + step); at += TOKEN_CHARS) {
      deltas.push({ type: "text" as const, text: text.slice(at, at + TOKEN_CHARS) });
    }
    state = tui.reduce(state, { type: "batch", events: batch.joinDeltas(deltas) });
    app.rerender(view());
    const spent = performance.now() - frameStart;
    times.push(spent);
    // Ink's throttled frames run on timers: give them their turn, paced like the stream.
    await new Promise((done) =>
      setTimeout(done, tokensPerSecond === null ? 0 : Math.max(0, FRAME_MS - spent))
    );
  }
  state = tui.reduce(state, { type: "turn_done", subtype: "success", result: text });
  app.rerender(view());
  app.unmount();
  const wallMs = performance.now() - started;
  return {
    wallMs,
    cpuMs: cpuMs() - cpuStart,
    frames: times.length,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    max: Math.max(...times),
    late: times.filter((t) => t > FRAME_MS).length,
    written: stdout.written,
    peakRssMb: peakRssMb(),
  };
}
