/**
 * @module
 * A long streamed Markdown answer through the real app in tmux: type a task, Enter, then sample the
 * screen every 25 ms until the answer's last line shows. Reports the wall time from Enter, the lag
 * from the simulator's last chunk to that line on screen, how far the screen trails the stream
 * (p50/p95 over the samples taken while tokens were still arriving or not yet shown), the echo time
 * of a key typed mid-answer, and the peak RSS of the CLI's process tree. A run that has not shown
 * the last line by the timeout reports how many tokens were on screen by then.
 */
import { DeepSeekSim, type RecordedRequest, type ScriptedReply } from "../tests/support/deepseek_sim.ts";
import type { TmuxPane } from "../tests/support/tmux.ts";
import { type BenchAnswer, lastMarker, TOKEN_CHARS, trailTokens } from "./_bench_tui_answer.ts";
import {
  launch,
  makePlace,
  panePid,
  type Place,
  pollScreen,
  removePlace,
  type Seen,
  stop,
  type TuiContender,
} from "./_bench_tui_pane.ts";
import { percentile, treePeakRssMb } from "./_bench_tui_proc.ts";

export interface StreamFigures {
  wallMs: number;
  lagMs: number;
  trailP50: number;
  trailP95: number;
  /** Null when the answer was on screen before the midpoint (nothing typed) or the key never showed. */
  echoMs: number | null;
  rssMb: number;
  /** False when the last line had not shown by the timeout; wall and lag then stop at the timeout. */
  finished: boolean;
  /** Tokens on screen when sampling stopped (all of them when finished). */
  shownTokens: number;
}

const TASK = "write the long bench answer";
const ECHO = "qzj";
const SAMPLE_MS = 25;

interface Sampling {
  answer: BenchAnswer;
  request: () => RecordedRequest | undefined;
  trail: number[];
  echoTypedAt?: number;
  echoSeenAt?: number;
}

/** One capture: records the trail, types the echo key at the midpoint, notes when it shows. */
async function sample(pane: TmuxPane, state: Sampling, seen: Seen): Promise<void> {
  const progress = state.request()?.stream;
  if (!progress) return;
  state.trail.push(trailTokens(state.answer, progress.sent, lastMarker(seen.screen)));
  if (state.echoTypedAt === undefined && progress.sent * 2 >= progress.tokens) {
    state.echoTypedAt = performance.now();
    await pane.type(ECHO);
  } else if (
    state.echoTypedAt !== undefined && state.echoSeenAt === undefined && seen.screen.includes(ECHO)
  ) {
    state.echoSeenAt = seen.at;
  }
}

/** Samples until the answer's last line shows or `timeoutMs` passes; says when and how far it got. */
async function follow(
  pane: TmuxPane,
  state: Sampling,
  timeoutMs: number,
): Promise<{ at: number; finished: boolean; visible: number }> {
  const deadline = performance.now() + timeoutMs;
  let seen = { at: performance.now(), screen: "" };
  while (performance.now() < deadline) {
    seen = { at: performance.now(), screen: await pane.screen() };
    if (seen.screen.includes(state.answer.finalLine)) {
      return { at: seen.at, finished: true, visible: state.answer.markerEnds.length - 1 };
    }
    await sample(pane, state, seen);
    await new Promise((done) => setTimeout(done, SAMPLE_MS));
  }
  return { at: seen.at, finished: false, visible: lastMarker(seen.screen) };
}

async function echoSeen(pane: TmuxPane): Promise<number | undefined> {
  try {
    return (await pollScreen(pane, (screen) => screen.includes(ECHO), { intervalMs: 10, timeoutMs: 30_000 }))
      .at;
  } catch {
    return undefined;
  }
}

async function streamOnce(
  contender: TuiContender,
  place: Place,
  run: { sim: DeepSeekSim; answer: BenchAnswer; timeoutMs: number },
): Promise<StreamFigures> {
  const { pane } = await launch(contender, place);
  try {
    await pollScreen(pane, (screen) => contender.ready.test(screen), { intervalMs: 50, timeoutMs: 60_000 });
    await pane.type(TASK);
    await pollScreen(pane, (screen) => screen.includes(TASK), { intervalMs: 20, timeoutMs: 10_000 });
    const first = run.sim.requests.length;
    const state: Sampling = {
      answer: run.answer,
      request: () => run.sim.requests.slice(first).find((r) => r.stream?.tokens === run.answer.tokens),
      trail: [],
    };
    const enterAt = performance.now();
    await pane.keys("Enter");
    const shown = await follow(pane, state, run.timeoutMs);
    const rssMb = await treePeakRssMb(await panePid(pane));
    if (state.echoTypedAt !== undefined && state.echoSeenAt === undefined) {
      state.echoSeenAt = await echoSeen(pane);
    }
    const doneAt = state.request()?.stream?.doneAt ?? shown.at;
    const answer = run.answer;
    return {
      wallMs: shown.at - enterAt,
      lagMs: Math.max(0, shown.at - doneAt),
      trailP50: state.trail.length ? percentile(state.trail, 0.5) : 0,
      trailP95: state.trail.length ? percentile(state.trail, 0.95) : 0,
      echoMs: state.echoTypedAt === undefined || state.echoSeenAt === undefined
        ? null
        : state.echoSeenAt - state.echoTypedAt,
      rssMb,
      finished: shown.finished,
      shownTokens: answer.tokens - trailTokens(answer, answer.tokens, shown.visible),
    };
  } finally {
    await stop(pane);
  }
}

/** `runs` answers of `answer` at `tokensPerSecond` (null: full speed), after one untimed start. */
export async function measureStream(
  contender: TuiContender,
  options: { answer: BenchAnswer; tokensPerSecond: number | null; runs: number; timeoutMs: number },
): Promise<StreamFigures[]> {
  const reply: ScriptedReply = {
    content: options.answer.text,
    chunkSize: TOKEN_CHARS,
    ...(options.tokensPerSecond === null ? {} : { tokensPerSecond: options.tokensPerSecond }),
  };
  // Side requests (titles, summaries) get a short answer; the task gets the long one.
  const sim = await DeepSeekSim.start({
    script: (request) =>
      JSON.stringify(request.json.messages?.at(-1) ?? "").includes(TASK) ? reply : { content: "ok" },
  });
  const place = await makePlace(contender, sim.url);
  try {
    const warm = await launch(contender, place);
    await pollScreen(warm.pane, (screen) => contender.ready.test(screen), {
      intervalMs: 50,
      timeoutMs: 60_000,
    });
    await stop(warm.pane);
    const figures: StreamFigures[] = [];
    const run = { sim, answer: options.answer, timeoutMs: options.timeoutMs };
    // An unfinished run would only time out again: one is enough to show how far it gets.
    while (figures.length < options.runs && figures.at(-1)?.finished !== false) {
      figures.push(await streamOnce(contender, place, run));
    }
    return figures;
  } finally {
    await sim.close();
    await removePlace(place);
  }
}
