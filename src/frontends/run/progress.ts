/**
 * @module
 * `reasonix run` in text mode, when stderr is a terminal: the same spinner line as the TUI's, drawn
 * on stderr in place and wiped before anything else is printed, so stdout keeps only what it had.
 */
import { type Activity, activityText, nextActivity, type ReasonixEvent } from "../../control/mod.ts";

const TICK_MS = 250;
const CLEAR_LINE = "\r\x1b[2K";

export interface Progress {
  /** Follows the turn's events. */
  update(event: ReasonixEvent): void;
  /** Wipes the line; call before writing anything else to the terminal. */
  clear(): void;
  stop(): void;
}

export interface ProgressOptions {
  writeError: (text: string) => void;
  columns: () => number;
  /** False while stdout's last line is unfinished on the same screen: the line is not ours to redraw. */
  atLineStart: () => boolean;
}

export function stderrProgress({ writeError, columns, atLineStart }: ProgressOptions): Progress {
  let activity: Activity | null = null;
  let shown = false;
  let frame = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  const draw = () => {
    if (!activity || !atLineStart()) return;
    const line = activityText(activity, Date.now(), frame++);
    writeError(`${CLEAR_LINE}${Array.from(line).slice(0, Math.max(10, columns() - 1)).join("")}`);
    shown = true;
  };
  const clear = () => {
    if (shown) writeError(CLEAR_LINE);
    shown = false;
  };
  const stop = () => {
    clearInterval(timer);
    timer = undefined;
    clear();
  };
  return {
    update(event) {
      activity = nextActivity(activity, event);
      if (!activity) return stop();
      if (timer !== undefined) return;
      timer = setInterval(draw, TICK_MS);
      // A run that ends without its turn_done (a crash) must not be kept alive by the spinner.
      Deno.unrefTimer(timer);
    },
    clear,
    stop,
  };
}
