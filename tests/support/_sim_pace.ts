/**
 * @module
 * Paced SSE bodies: the token frames of a streamed reply (reasoning, content and tool-call deltas, one
 * simulated token each) leave at a fixed rate, the role frame first and the tail right after the last
 * token. Progress is written into a `StreamProgress` the caller can watch while the stream runs.
 */

import type { StreamProgress } from "./_sim_types.ts";

export interface PacedFrames {
  /** Sent at once: keep-alive comments and the role frame. */
  head: string[];
  /** One token each, paced. */
  tokens: string[];
  /** Finish, usage and `[DONE]`, sent right after the last token. */
  tail: string[];
}

export interface PaceOptions {
  /** Tokens per second; null sends every frame at once. */
  tokensPerSecond: number | null;
  progress: StreamProgress;
  /** Waits or returns early when the simulator closes. */
  sleep: (ms: number) => Promise<void>;
  closing: AbortSignal;
}

export function newProgress(tokens: number, tokensPerSecond: number | null): StreamProgress {
  return { tokens, sent: 0, tokensPerSecond, startedAt: performance.now() };
}

/** The delay before token `index` may leave, from a stream that started at `startedAt`. */
export function dueIn(index: number, tokensPerSecond: number, startedAt: number, now: number): number {
  return startedAt + (index * 1000) / tokensPerSecond - now;
}

export function pacedBody(frames: PacedFrames, options: PaceOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const { progress, tokensPerSecond } = options;
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (piece: string) => controller.enqueue(encoder.encode(piece));
      frames.head.forEach(send);
      void (async () => {
        progress.startedAt = performance.now();
        for (const [index, piece] of frames.tokens.entries()) {
          if (tokensPerSecond !== null) {
            const wait = dueIn(index, tokensPerSecond, progress.startedAt, performance.now());
            if (wait > 0) await options.sleep(wait);
          }
          if (cancelled) return;
          if (options.closing.aborted) return controller.close();
          send(piece);
          progress.sent = index + 1;
        }
        frames.tail.forEach(send);
        progress.doneAt = performance.now();
        controller.close();
      })();
    },
    cancel() {
      cancelled = true;
    },
  });
}
