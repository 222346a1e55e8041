/**
 * @module
 * A small Server-Sent Events parser over a byte stream: `\n`, `\r\n` and `\r` line ends, comment lines,
 * multi-line `data`, and UTF-8 split anywhere across chunks.
 */

export interface SseEvent {
  /** The `event:` field, "message" when absent. */
  event: string;
  data: string;
}

const LF = 10;
const CR = 13;

/**
 * Yields each event as its blank line arrives. At the end of the stream, pending complete `data` lines
 * are still yielded; a final line cut off without its line end is dropped. Returning early cancels the body.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const lines = new LineSplitter();
  const builder = new EventBuilder();
  let finished = false;
  try {
    while (!finished) {
      const { done, value } = await reader.read();
      finished = done;
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const line of lines.push(text, done)) {
        const event = builder.line(line);
        if (event) yield event;
      }
    }
    const last = builder.dispatch();
    if (last) yield last;
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

export class LineSplitter {
  #buffer = "";

  /** Complete lines in `text`; with `final`, a trailing `\r` ends a line and any unterminated rest is dropped. */
  push(text: string, final: boolean): string[] {
    const buffer = this.#buffer + text;
    const lines: string[] = [];
    let start = 0;
    // The kept rest holds no line end, except perhaps a trailing CR waiting for its LF.
    let i = this.#buffer.length;
    if (i > 0 && buffer.charCodeAt(i - 1) === CR) i--;
    for (; i < buffer.length; i++) {
      const code = buffer.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      if (code === CR && i === buffer.length - 1 && !final) break;
      lines.push(buffer.slice(start, i));
      if (code === CR && buffer.charCodeAt(i + 1) === LF) i++;
      start = i + 1;
    }
    this.#buffer = final ? "" : buffer.slice(start);
    return lines;
  }
}

class EventBuilder {
  #event = "";
  #data: string[] = [];

  line(line: string): SseEvent | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    else if (field === "event") this.#event = value;
    return undefined;
  }

  dispatch(): SseEvent | undefined {
    const event = this.#event || "message";
    const data = this.#data;
    this.#event = "";
    this.#data = [];
    if (data.length === 0) return undefined;
    return { event, data: data.join("\n") };
  }
}
