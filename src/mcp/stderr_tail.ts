/**
 * @module
 * The last few kilobytes a server wrote to stderr: enough to explain a failure, never unbounded. Read
 * back with known secret values and credential shapes redacted and terminal controls removed.
 */
import { redactSecrets } from "../lib/redact.ts";
import { stripControls } from "../lib/terminal_text.ts";

export const STDERR_TAIL_BYTES = 8 * 1024;

export class StderrTail {
  #text = "";
  #dropped = false;
  readonly #limit: number;
  readonly #secrets: readonly string[];

  constructor(secrets: readonly string[], limit = STDERR_TAIL_BYTES) {
    this.#secrets = secrets;
    this.#limit = limit;
  }

  append(text: string): void {
    this.#text += text;
    // Cut at twice the limit so a steady trickle does not slice the string on every chunk.
    if (this.#text.length > 2 * this.#limit) {
      this.#text = this.#text.slice(-this.#limit);
      this.#dropped = true;
    }
  }

  /** Up to `lines` last lines, redacted; "" when the server wrote nothing. */
  text(lines = 20): string {
    const clean = stripControls(redactSecrets(this.#text.slice(-this.#limit), this.#secrets)).trimEnd();
    const kept = clean.split("\n").slice(-lines);
    const cut = this.#dropped || clean.split("\n").length > lines;
    return (cut ? "…\n" : "") + kept.join("\n");
  }

  async pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) this.append(decoder.decode(chunk, { stream: true }));
    } catch {
      // The pipe broke with the process: what arrived is kept.
    }
  }
}
