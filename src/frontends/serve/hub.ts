/**
 * @module
 * The open sessions of a server: one Controller each, booted on first use and closed when nobody has
 * watched it for a while and it waits for nothing. Each has a journal that records every event from
 * the moment it opened, so a client that drops its stream can be sent exactly what it missed.
 */
import {
  bootController,
  type BootOptions,
  type Controller,
  interruptAndSettle,
  SETTLE_MS,
  type StopSignal,
} from "../../control/mod.ts";
import { ReasonixError } from "../../lib/errors.ts";
import { Journal } from "./journal.ts";

export interface OpenSession {
  readonly controller: Controller;
  /** Replaced when the Controller moves to another session (`/new`, `/resume`, a first-turn `/model`). */
  journal: Journal;
  /** When the last stream or request touched it (ms, performance.now()). */
  touched: number;
  /** Ends the streams that watch it (the session closes). */
  readonly streams: Set<() => void>;
}

export interface HubOptions {
  /** How every session boots (the workspace, flags, paths); `resume` is set per session. */
  boot: Omit<BootOptions, "headless" | "resume" | "switchable">;
  /** A session unwatched and idle this long is closed (default 15 minutes; 0: never). */
  idleMs?: number;
  /** How often open streams get a heartbeat event (default 15 s; 0: never). */
  heartbeatMs?: number;
}

const DEFAULT_IDLE_MS = 15 * 60_000;
const DEFAULT_HEARTBEAT_MS = 15_000;

export class SessionHub {
  #options: HubOptions;
  #open = new Map<string, OpenSession>();
  #opening = new Map<string, Promise<OpenSession>>();
  #timers: ReturnType<typeof setInterval>[] = [];

  constructor(options: HubOptions) {
    this.#options = options;
    const idle = options.idleMs ?? DEFAULT_IDLE_MS;
    const heartbeat = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    if (idle > 0) this.#timers.push(setInterval(() => void this.#sweep(idle), Math.min(idle, 60_000)));
    if (heartbeat > 0) this.#timers.push(setInterval(() => this.#heartbeat(), heartbeat));
  }

  get workspace(): { cwd: string; dir?: string } {
    const { cwd, dir } = this.#options.boot;
    return dir === undefined ? { cwd } : { cwd, dir };
  }

  /** The open session with this id, if any. */
  get(id: string): OpenSession | undefined {
    const session = this.#open.get(id);
    if (session) session.touched = performance.now();
    return session;
  }

  /** New sessions start on this model (provider setup chose it); open ones keep theirs. */
  setDefaultModel(ref: string): void {
    const boot = this.#options.boot;
    this.#options = { ...this.#options, boot: { ...boot, flags: { ...boot.flags, model: ref } } };
  }

  ids(): string[] {
    return [...this.#open.keys()];
  }

  /** A new session (written to disk at its first turn). */
  async create(flags: { model?: string } = {}): Promise<OpenSession> {
    const boot = this.#options.boot;
    const controller = await bootController({
      ...boot,
      flags: { ...boot.flags, ...(flags.model ? { model: flags.model } : {}) },
      headless: false,
      switchable: true,
    });
    return this.#adopt(controller);
  }

  /** The session with this exact id, opened (resumed) when it is not open yet. */
  open(id: string): Promise<OpenSession> {
    const open = this.get(id);
    if (open) return Promise.resolve(open);
    const pending = this.#opening.get(id);
    if (pending) return pending;
    const opening = this.#resume(id).finally(() => this.#opening.delete(id));
    this.#opening.set(id, opening);
    return opening;
  }

  async #resume(id: string): Promise<OpenSession> {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(id)) {
      throw new ReasonixError("session.not_found", `Cannot find session "${id}"`);
    }
    const controller = await bootController({
      ...this.#options.boot,
      resume: { kind: "query", query: id },
      headless: false,
      switchable: true,
    });
    if (controller.sessionId !== id) {
      await controller.close();
      throw new ReasonixError("session.not_found", `Cannot find session "${id}"`);
    }
    return this.#adopt(controller);
  }

  #adopt(controller: Controller): OpenSession {
    const journal = new Journal(controller.lastSeq);
    const session: OpenSession = { controller, journal, touched: performance.now(), streams: new Set() };
    let key = controller.sessionId;
    controller.subscribe((event) => {
      // `/new`, `/resume` and `/clear` move this Controller to another session: it is found by its new id,
      // with a journal of its own; streams of the old id end, and their clients reconnect to the new one.
      if (event.type === "session_started" && controller.sessionId !== key) {
        this.#open.delete(key);
        key = controller.sessionId;
        this.#open.set(key, session);
        for (const end of [...session.streams]) end();
        session.journal = new Journal(controller.lastSeq);
      }
      session.journal.push(event, controller.lastSeq);
    });
    this.#open.set(key, session);
    controller.start();
    return session;
  }

  /** Closes the session's Controller and ends its streams; false when it was not open. */
  async close(id: string): Promise<boolean> {
    const session = this.#open.get(id);
    if (!session) return false;
    this.#open.delete(id);
    for (const end of [...session.streams]) end();
    await session.controller.close();
    return true;
  }

  /**
   * Closes every session. A running turn is first interrupted as a cancel does (`signal` names why) and
   * given up to `settleMs` to record its end (the turn's end, the results of its interrupted tool calls).
   */
  async closeAll(signal: StopSignal = "SIGINT", settleMs = SETTLE_MS): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    await Promise.allSettled([...this.#opening.values()]);
    const deadline = performance.now() + settleMs;
    await Promise.all(
      [...this.#open.values()].map(({ controller }) => interruptAndSettle(controller, signal, deadline)),
    );
    for (const id of [...this.#open.keys()]) await this.close(id);
  }

  async #sweep(idleMs: number): Promise<void> {
    const now = performance.now();
    for (const [id, session] of [...this.#open]) {
      const { controller, journal } = session;
      const waiting = controller.pendingApprovals().length + controller.pendingQuestions().length;
      if (journal.listeners > 0 || controller.busy || waiting > 0 || now - session.touched < idleMs) continue;
      await this.close(id);
    }
  }

  #heartbeat(): void {
    const at = new Date().toISOString();
    for (const { controller, journal } of this.#open.values()) {
      if (journal.listeners > 0) journal.push({ type: "heartbeat", at }, controller.lastSeq);
    }
  }
}
