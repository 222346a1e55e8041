/**
 * @module
 * `read_subagent_result`'s view: only the answers of subagents this conversation started (the pool is
 * one per conversation; after a restart, their session files linked to it), so a ref from elsewhere, or a path
 * dressed as one, reads nothing. A background run's ref reads a "still running" note until it ends.
 */
import type { SubagentResults } from "../tool/tool.ts";
import type { SubagentPool } from "./subagent_pool.ts";

export class ChildResults implements SubagentResults {
  readonly #pool: SubagentPool;

  constructor(pool: SubagentPool) {
    this.#pool = pool;
  }

  read(ref: string): Promise<string | undefined> {
    return this.#pool.result(ref);
  }

  background(run: Promise<string>): string {
    return this.#pool.background(run);
  }
}
