/**
 * @module
 * What every subagent of one conversation shares, whatever its depth: the concurrency slots
 * (`max_subagent_concurrency`, shared by task, fleet and skills), the writer slots
 * (`max_parallel_writers`), the write claims held right now (overlapping writers wait for each other),
 * the running children (to cancel one) and the results `read_subagent_result` pages.
 */
import { FinishedChildren } from "./subagent_continue.ts";
import type { ChildRecall } from "./subagent_recall.ts";
import type { SubagentEvent } from "../agent/events.ts";
import { ToolError, type WriteObserver } from "../tool/tool.ts";
import { claimsOverlap, type WriteClaim } from "../tool/write_claims.ts";

export interface SubagentLimits {
  maxDepth: number;
  maxConcurrency: number;
  maxParallelWriters: number;
}

export const DEFAULT_LIMITS: SubagentLimits = { maxDepth: 2, maxConcurrency: 6, maxParallelWriters: 3 };

export interface RunningChild {
  sessionId: string;
  parentId: string;
  depth: number;
  description: string;
  writer: boolean;
  abort: AbortController;
}

/** A child this conversation started, running or ended (`/tree`). */
export interface ChildSummary {
  sessionId: string;
  parentId: string;
  depth: number;
  description: string;
  writer: boolean;
  status: "running" | "done" | "failed";
}

/** The most ended children `/tree` remembers. */
const KNOWN_LIMIT = 200;

interface Waiter {
  fits: () => boolean;
  start: () => void;
}

/** A held slot (and claim); `release` frees it once. */
export interface Admission {
  release(): void;
}

/** What faces reach through `workspaceOps.subagents`: the running children, cancelling one. */
export interface SubagentControl {
  children(): RunningChild[];
  /** Every child of this conversation, oldest first (running ones too, and an earlier process's). */
  known(): Promise<ChildSummary[]>;
  cancel(sessionId: string): boolean;
  attach(listener: (event: SubagentEvent) => void): void;
}

export class SubagentPool implements SubagentControl {
  /** Children that ended, for `task(continue_from=…)`. */
  readonly finished: FinishedChildren;
  readonly limits: SubagentLimits;
  readonly #recall: ChildRecall | undefined;
  #running = 0;
  #writers = 0;
  #claims = new Set<WriteClaim>();
  #waiters: Waiter[] = [];
  #children = new Map<string, RunningChild>();
  #known = new Map<string, ChildSummary>();
  /** The children an earlier process started, read once when first asked for. */
  #earlier: Promise<ChildSummary[]> | undefined;
  #results = new Map<string, string>();
  #listener: ((event: SubagentEvent) => void) | null = null;
  #writeChain: Promise<void> = Promise.resolve();
  #backgrounds = 0;
  /** Tells this process's background refs from an earlier process's, which a resumed history still holds. */
  readonly #runTag = Array.from(
    crypto.getRandomValues(new Uint8Array(3)),
    (b) => b.toString(16).padStart(2, "0"),
  )
    .join("");

  /** `recall`: where refs this process does not hold are looked up (the children's session files). */
  constructor(limits: SubagentLimits, recall?: ChildRecall) {
    this.#recall = recall;
    this.finished = new FinishedChildren(recall);
    this.limits = {
      ...limits,
      maxParallelWriters: Math.min(limits.maxParallelWriters, limits.maxConcurrency),
    };
  }

  /**
   * Waits for a slot (and for writers, a writer slot and a claim no running writer overlaps). With
   * `wait: false` (a child starting its own child while it holds a slot) it refuses instead of waiting,
   * so a chain of children can never deadlock on slots its ancestors hold.
   */
  admit(claim: WriteClaim | null, options: { wait: boolean; signal: AbortSignal }): Promise<Admission> {
    const fits = () => this.#fits(claim);
    if (fits()) return Promise.resolve(this.#take(claim));
    if (!options.wait) return Promise.reject(this.#busy());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        fits,
        start: () => {
          options.signal.removeEventListener("abort", onAbort);
          resolve(this.#take(claim));
        },
      };
      const onAbort = () => {
        this.#waiters = this.#waiters.filter((item) => item !== waiter);
        reject(new ToolError("tool.aborted", "Cancelled while waiting for a subagent slot"));
      };
      if (options.signal.aborted) return onAbort();
      options.signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(waiter);
    });
  }

  #fits(claim: WriteClaim | null): boolean {
    if (this.#running >= this.limits.maxConcurrency) return false;
    if (claim === null) return true;
    if (this.#writers >= this.limits.maxParallelWriters) return false;
    return ![...this.#claims].some((held) => claimsOverlap(held, claim));
  }

  #take(claim: WriteClaim | null): Admission {
    this.#running++;
    if (claim) {
      this.#writers++;
      this.#claims.add(claim);
    }
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#running--;
        if (claim) {
          this.#writers--;
          this.#claims.delete(claim);
        }
        this.#wake();
      },
    };
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) {
      if (!waiter.fits()) continue;
      this.#waiters = this.#waiters.filter((item) => item !== waiter);
      waiter.start();
    }
  }

  #busy(): ToolError {
    if (this.#running >= this.limits.maxConcurrency) {
      return new ToolError(
        "subagent.concurrency_limit",
        `All ${this.limits.maxConcurrency} subagent slots are taken ([agent] max_subagent_concurrency); ` +
          "do this part yourself or try again when a subagent has finished",
      );
    }
    const why = this.#writers >= this.limits.maxParallelWriters
      ? `all ${this.limits.maxParallelWriters} writer slots are taken ([agent] max_parallel_writers)`
      : "a running writer claims an overlapping path";
    return new ToolError("subagent.writer_busy", `Cannot start a writer subagent now: ${why}`);
  }

  get running(): number {
    return this.#running;
  }

  /** Registers a running child; the returned function records how it ended. */
  track(child: RunningChild): (ok: boolean) => void {
    this.#children.set(child.sessionId, child);
    const { abort: _abort, ...summary } = child;
    this.#known.set(child.sessionId, { ...summary, status: "running" });
    if (this.#known.size > KNOWN_LIMIT) this.#known.delete(this.#known.keys().next().value!);
    return (ok) => {
      this.#children.delete(child.sessionId);
      const known = this.#known.get(child.sessionId);
      if (known) known.status = ok ? "done" : "failed";
    };
  }

  async known(): Promise<ChildSummary[]> {
    this.#earlier ??= this.#recall?.earlier().catch(() => []) ?? Promise.resolve([]);
    const earlier = (await this.#earlier).filter((child) => !this.#known.has(child.sessionId));
    return [...earlier, ...this.#known.values()].map((child) => ({ ...child }));
  }

  children(): RunningChild[] {
    return [...this.#children.values()];
  }

  /** Cancels one running child (and its own children, whose signals follow its); false when none runs. */
  cancel(sessionId: string): boolean {
    const child = this.#children.get(sessionId);
    if (!child) return false;
    child.abort.abort(new ToolError("subagent.cancelled", "The subagent was cancelled"));
    return true;
  }

  /** Where children's progress goes (the Controller's event log); one listener, the latest. */
  attach(listener: (event: SubagentEvent) => void): void {
    this.#listener = listener;
  }

  emit(event: SubagentEvent): void {
    this.#listener?.(event);
  }

  /** The turn's checkpoints for children: one write recorded at a time, whichever child makes it. */
  serialWrites(observer: WriteObserver): WriteObserver {
    return {
      beforeWrite: (touches) => {
        const run = this.#writeChain.then(() => observer.beforeWrite(touches));
        this.#writeChain = run.catch(() => {});
        return run;
      },
    };
  }

  /** A ref for `run`'s text, readable at once: a note until it settles. */
  background(run: Promise<string>): string {
    const ref = `subagent:bg-${this.#runTag}-${++this.#backgrounds}`;
    this.#results.set(ref, "[still running: read this ref again later]");
    run.then(
      (text) => this.keep(ref, text),
      (error) => this.keep(ref, `[failed] ${String(error?.message ?? error)}`),
    );
    return ref;
  }

  /** Stops every running child (the session is closing). */
  cancelAll(): void {
    for (const id of this.#children.keys()) this.cancel(id);
  }

  keep(ref: string, text: string): void {
    this.#results.set(ref, text);
  }

  async result(ref: string): Promise<string | undefined> {
    return this.#results.get(ref) ?? await this.#recall?.answer(ref);
  }
}
