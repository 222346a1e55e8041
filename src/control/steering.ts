/**
 * @module
 * The Controller's steering queue: while a turn runs, `steer` text waits here for the turn's next model
 * request (src/agent/steer.ts); the loop makes one more request when text arrived after the model's final
 * answer. Between turns nothing is taken: the text is a prompt then. What a turn that stopped early (an
 * interrupt, a failure) never delivered is handed back, so the face can say so.
 */
import type { SteerSource } from "../agent/steer.ts";

export class Steering implements SteerSource {
  #pending: string[] = [];
  #open = false;

  /** A turn starts: steering is taken until `close`. */
  open(): void {
    this.#open = true;
    this.#pending = [];
  }

  /** Queues `text` for the running turn; false when no turn runs (or the text is blank). */
  add(text: string): boolean {
    if (!this.#open || text.trim() === "") return false;
    this.#pending.push(text);
    return true;
  }

  pending(): boolean {
    return this.#pending.length > 0;
  }

  take(): string[] | null {
    if (this.#pending.length === 0) return null;
    const texts = this.#pending;
    this.#pending = [];
    return texts;
  }

  /** The turn ended: returns the texts it never delivered. */
  close(): string[] {
    const left = this.#pending;
    this.#open = false;
    this.#pending = [];
    return left;
  }
}

export function undeliveredWarning(texts: readonly string[]): string {
  const shown = texts.map((text) => JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text));
  return `The turn ended before this steering reached the model; send it again as a prompt: ${
    shown.join(", ")
  }`;
}
