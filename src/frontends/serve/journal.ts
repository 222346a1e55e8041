/**
 * @module
 * One session's SSE journal: every event the Controller sent while the server held it open, each
 * with an id a reconnecting client hands back in `Last-Event-ID`. An event with its own log `seq`
 * gets `seq` as its id; anything else (streamed deltas, usage, heartbeats) gets a sub-id
 * `<seq>.<n>` after the newest seq seen, so ids only grow and a replay sends exactly what came after.
 */
import type { ReasonixEvent } from "../../control/mod.ts";

/** The one event serve adds: sent while streams are open, so a client sees the link is alive. */
export interface HeartbeatEvent {
  type: "heartbeat";
  at: string;
}

export type ServeEvent = ReasonixEvent | HeartbeatEvent;

export interface Frame {
  id: string;
  base: number;
  sub: number;
  event: ServeEvent;
}

export type FrameListener = (frame: Frame) => void;

/** Frames kept per session; a client further behind gets the session's log replayed instead. */
const DEFAULT_LIMIT = 10_000;

export class Journal {
  #frames: Frame[] = [];
  #listeners = new Set<FrameListener>();
  #base: number;
  #sub = 0;
  #limit: number;
  /** The position the journal can replay from: where it started, then the newest frame it dropped. */
  #floor: Position;

  /** `lastSeq`: the log's newest seq when the journal starts. */
  constructor(lastSeq: number, options: { limit?: number } = {}) {
    this.#base = lastSeq;
    this.#floor = { base: lastSeq, sub: 0 };
    this.#limit = options.limit ?? DEFAULT_LIMIT;
  }

  /** Records an event; `lastSeq` is the log's newest seq now (an event without its own seq follows it). */
  push(event: ServeEvent, lastSeq: number): Frame {
    const own = "seq" in event && typeof event.seq === "number" ? event.seq : undefined;
    if (own !== undefined && own > this.#base) {
      this.#base = own;
      this.#sub = 0;
    } else if (lastSeq > this.#base) {
      this.#base = lastSeq;
      this.#sub = 1;
    } else this.#sub++;
    const frame: Frame = { id: frameId(this.#base, this.#sub), base: this.#base, sub: this.#sub, event };
    this.#frames.push(frame);
    if (this.#frames.length > this.#limit) {
      const dropped = this.#frames.splice(0, this.#frames.length - this.#limit);
      this.#floor = dropped.at(-1)!;
    }
    for (const listener of this.#listeners) listener(frame);
    return frame;
  }

  /** The id of the newest frame (or of where the journal started): a fresh client resumes from it. */
  get lastId(): string {
    return frameId(this.#base, this.#sub);
  }

  /**
   * The frames after `id`, or null when the journal cannot tell (an id from before this server held
   * the session, one dropped by the limit, or one it never issued): the caller replays the log instead.
   */
  after(id: string): Frame[] | null {
    const at = parseFrameId(id);
    if (!at || before(at, this.#floor) || before({ base: this.#base, sub: this.#sub }, at)) return null;
    return this.#frames.filter((frame) => before(at, frame));
  }

  listen(listener: FrameListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listeners(): number {
    return this.#listeners.size;
  }
}

interface Position {
  base: number;
  sub: number;
}

export function frameId(base: number, sub: number): string {
  return sub === 0 ? String(base) : `${base}.${sub}`;
}

export function parseFrameId(id: string): { base: number; sub: number } | null {
  const match = /^(\d{1,15})(?:\.(\d{1,15}))?$/.exec(id.trim());
  if (!match) return null;
  return { base: Number(match[1]), sub: Number(match[2] ?? 0) };
}

function before(a: Position, b: Position): boolean {
  return a.base < b.base || (a.base === b.base && a.sub < b.sub);
}
