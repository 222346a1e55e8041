/**
 * @module
 * Slash commands that run long work outside a turn (a subagent skill's `/name`): each runs with its own
 * abort signal, and `Controller.interrupt()` (Ctrl+C, a face's cancel) aborts every one still running.
 */
export class RunningCommands {
  readonly #running = new Set<AbortController>();

  /** How many are running; the Controller is busy while any is. */
  get size(): number {
    return this.#running.size;
  }

  async run<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    this.#running.add(abort);
    try {
      return await work(abort.signal);
    } finally {
      this.#running.delete(abort);
    }
  }

  abort(reason: unknown): void {
    for (const abort of this.#running) abort.abort(reason);
  }
}
