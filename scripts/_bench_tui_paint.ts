/**
 * @module
 * Time to first paint: from asking tmux to start the CLI until its input prompt shows on the captured
 * screen (polled every 10 ms), and the peak RSS of its process tree at that moment. One untimed start
 * first, so a first-run migration of the home or a cold module cache is not counted.
 */
import { DeepSeekSim } from "../tests/support/deepseek_sim.ts";
import {
  launch,
  makePlace,
  panePid,
  type Place,
  pollScreen,
  removePlace,
  stop,
  type TuiContender,
} from "./_bench_tui_pane.ts";
import { treePeakRssMb } from "./_bench_tui_proc.ts";

export interface PaintFigures {
  ms: number;
  rssMb: number;
  /** Until the session has booted (`booted`, else the same as `ms`). */
  bootedMs: number;
  /** Peak RSS of the tree once booted. */
  bootedRssMb: number;
}

const POLL = { intervalMs: 10, timeoutMs: 60_000 };

export async function paintOnce(contender: TuiContender, place: Place): Promise<PaintFigures> {
  const { pane, startedAt } = await launch(contender, place);
  try {
    const seen = await pollScreen(pane, (screen) => contender.ready.test(screen), POLL);
    const rssMb = await treePeakRssMb(await panePid(pane));
    const booted = contender.booted
      ? await pollScreen(pane, (screen) => contender.booted!.test(screen), POLL)
      : seen;
    const bootedRssMb = contender.booted ? await treePeakRssMb(await panePid(pane)) : rssMb;
    return { ms: seen.at - startedAt, rssMb, bootedMs: booted.at - startedAt, bootedRssMb };
  } finally {
    await stop(pane);
  }
}

export async function measureFirstPaint(contender: TuiContender, runs: number): Promise<PaintFigures[]> {
  const sim = await DeepSeekSim.start({ script: () => ({ content: "unused" }) });
  const place = await makePlace(contender, sim.url);
  try {
    await paintOnce(contender, place);
    const figures: PaintFigures[] = [];
    for (let i = 0; i < runs; i++) figures.push(await paintOnce(contender, place));
    return figures;
  } finally {
    await sim.close();
    await removePlace(place);
  }
}
