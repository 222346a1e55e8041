/**
 * @module
 * Streamed deltas arrive far faster than a terminal can show them; folding those of one frame into
 * one state update keeps React and Ink at frame rate. Any other event flushes at once, in order.
 */
import type { EventSource, ReasonixEvent } from "../../control/mod.ts";

export interface EventBatch {
  type: "batch";
  events: readonly ReasonixEvent[];
}

/**
 * Ink draws at most 30 frames a second, but prints new <Static> lines at once: a shorter batch made a
 * fast stream draw twice per Ink frame.
 */
const FRAME_MS = 33;

/**
 * `snapshot`: ask the source for the session as it stands first (folded in one batch). `wipe`: called
 * before a redraw (a branch switch, a conversation rewind), whose snapshot replaces what was printed.
 */
export function subscribeBatched(
  source: EventSource,
  dispatch: (batch: EventBatch) => void,
  options: { frameMs?: number; snapshot?: boolean; wipe?: () => void } = {},
): () => void {
  const frameMs = options.frameMs ?? FRAME_MS;
  let replaying = options.snapshot === true;
  let queue: ReasonixEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const events = queue;
    queue = [];
    if (events.some((event) => event.type === "session_started" && event.redraw)) options.wipe?.();
    if (events.length > 0) dispatch({ type: "batch", events: joinDeltas(events) });
  };
  const unsubscribe = source.subscribe((event) => {
    queue.push(event);
    if (replaying) return;
    if (event.type !== "text" && event.type !== "reasoning") flush();
    else timer ??= setTimeout(flush, frameMs);
  }, options.snapshot ? {} : undefined);
  replaying = false;
  flush();
  return () => {
    unsubscribe();
    flush();
  };
}

/**
 * Consecutive text (or reasoning) deltas as one: the state then finds the answer's finished Markdown
 * blocks once per frame instead of once per delta.
 */
export function joinDeltas(events: readonly ReasonixEvent[]): ReasonixEvent[] {
  const joined: ReasonixEvent[] = [];
  for (const event of events) {
    const last = joined.at(-1);
    if ((event.type === "text" || event.type === "reasoning") && last?.type === event.type) {
      joined[joined.length - 1] = { type: event.type, text: last.text + event.text };
    } else joined.push(event);
  }
  return joined;
}
