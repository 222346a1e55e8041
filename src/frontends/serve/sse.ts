/**
 * @module
 * A session's event stream: `text/event-stream` frames whose `id:` is the journal id (the log `seq`,
 * or `<seq>.<n>` for events without one). A fresh client first gets the stored session as it stands
 * (no ids), then a `ready` frame carrying the id to resume from; a client that reconnects with
 * `Last-Event-ID` (or `?after=`) gets exactly the frames it missed, then the live ones.
 */
import type { ReasonixEvent } from "../../control/mod.ts";
import type { Frame } from "./journal.ts";
import { parseFrameId } from "./journal.ts";
import type { OpenSession } from "./hub.ts";

const encoder = new TextEncoder();
/**
 * Frames queued for a client that does not read: past this the stream ends, and the client's reconnect
 * (with its Last-Event-ID) is served from the journal, so a stalled reader costs no unbounded memory.
 */
const MAX_QUEUED = 5000;

export function eventStream(session: OpenSession, after: string | null): Response {
  let end = () => {};
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      let floor = -Infinity;
      const send = (text: string) => {
        try {
          stream.enqueue(encoder.encode(text));
          if ((stream.desiredSize ?? 0) < floor) end();
        } catch {
          end();
        }
      };
      // Catch-up and listening happen in one synchronous step: no event can fall between them.
      for (const text of catchUp(session, after)) send(text);
      // Only live frames count against the limit: a long session's catch-up is one burst, read as it goes.
      floor = (stream.desiredSize ?? 0) - MAX_QUEUED;
      const unlisten = session.journal.listen((frame) => send(frameText(frame)));
      end = () => {
        unlisten();
        session.streams.delete(end);
        try {
          stream.close();
        } catch {
          // Already closed by the client.
        }
      };
      session.streams.add(end);
    },
    cancel() {
      end();
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-store",
      "x-accel-buffering": "no",
    },
  });
}

function catchUp(session: OpenSession, after: string | null): string[] {
  const { controller, journal } = session;
  if (after !== null) {
    const missed = journal.after(after);
    if (missed) return missed.map(frameText);
  }
  // Without an id the journal knows, the log is replayed: all of it, or the records after the id's seq.
  const from = after === null ? undefined : parseFrameId(after)?.base;
  const events: ReasonixEvent[] = controller.snapshot(from);
  return [
    ...events.map((event) => dataText(event)),
    `id: ${journal.lastId}\ndata: ${JSON.stringify({ type: "ready", lastId: journal.lastId })}\n\n`,
  ];
}

export function frameText(frame: Frame): string {
  return `id: ${frame.id}\n${dataText(frame.event)}`;
}

function dataText(event: unknown): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}
