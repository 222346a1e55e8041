/**
 * @module
 * Append-only JSONL sessions: one record per line, each line written whole and synced before the append
 * resolves, so a crash loses at most the line being written and a reload replays messages byte for byte.
 */
import { join, resolve } from "node:path";
import { ReasonixError } from "../lib/errors.ts";
import type { ChatMessage, Usage } from "../provider/provider.ts";
import { workspaceDir } from "./_paths.ts";
import { SessionLock } from "./lock.ts";
import { interruptedTail, repairHistory } from "./repair.ts";

/** Face-visible facts that are not provider messages (see log.ts); replayed to faces, never to the model. */
export type SessionEntry =
  /** The text the user typed, before turn notes and mentions were added to the user message. */
  | { kind: "turn"; turn: number; text: string }
  | { kind: "turn_end"; subtype: "success" | "error_during_execution" | "error_max_steps"; result: string }
  | { kind: "notice"; level: "info" | "warning"; text: string }
  | { kind: "approval_asked"; id: string; callId: string; tool: string; subject: string | null }
  | { kind: "approval_answered"; id: string; choice: string; cancelled?: boolean; reason?: string }
  | { kind: "question_asked"; id: string; questions: unknown[] }
  | { kind: "question_answered"; id: string; outcome: string; answers?: unknown[] }
  | { kind: "model"; model: string; provider: string }
  | { kind: "plan_proposed"; plan: unknown }
  | { kind: "plan_resolved"; plan: unknown; outcome: string; feedback?: string; mode?: string };

/** How a tool call ended, beside the model-facing tool message: for faces, never sent. */
export interface ToolOutcomeMeta {
  ok: boolean;
  code?: string;
  durationMs: number;
  readOnly: boolean;
  /** The tool's typed data (tool.ts ToolData). */
  data?: unknown;
}

/** `seq` numbers the records of a session from 1 (the header); records written before it existed lack it. */
export type SessionRecord =
  & { seq?: number }
  & (
    | {
      type: "session";
      v: 1;
      id: string;
      workspace: string;
      createdAt: string;
      model: string;
      provider: string;
    }
    | { type: "message"; message: ChatMessage; tool?: ToolOutcomeMeta }
    | { type: "usage"; usage: Usage; model: string; cost: number | null; currency: string | null; at: string }
    | { type: "event"; name: string; data?: unknown; at: string }
    /** Replaces the replayed history from here on; the records before it stay in the file. */
    | {
      type: "compaction";
      messages: ChatMessage[];
      reason: string;
      beforeTokens: number;
      afterTokens: number;
      at: string;
    }
    | { type: "entry"; entry: SessionEntry; at: string }
    /**
     * A rewind: the conversation goes back to its state just before record `to` (`messages` is that
     * replayed history); the records after `to` stay in the file, abandoned.
     */
    | {
      type: "rewind";
      to: number;
      messages: ChatMessage[];
      at: string;
      /** The name the abandoned line keeps as a branch (branches.ts); older records lack it. */
      branch?: string;
    }
    /** `/branch`: the line forks here; from this record on it is branch `name`, its parent keeps its head. */
    | { type: "branch"; name: string; at: string }
    /** `/switch`: the line returns to branch `name` as it stood after the first `to` records, like a rewind. */
    | { type: "switch"; name: string; to: number; messages: ChatMessage[]; at: string }
  );

export type SessionHeader = Extract<SessionRecord, { type: "session" }>;

export interface LoadedSession {
  header: SessionHeader;
  messages: ChatMessage[];
  records: SessionRecord[];
  /** The last line was partial (a crash mid-write) and was ignored. */
  tornTail: boolean;
}

/** Recorded when a session is reopened after its last turn was cut off mid-way. */
export const REPAIRED_EVENT = "interrupted_turn_closed";

export interface CreateSessionOptions {
  workspace: string;
  model: string;
  provider: string;
  now?: Date;
}

const NEWLINE = 0x0a;
const MAX_ID_ATTEMPTS = 5;
const ENCODER = new TextEncoder();

export class SessionStore {
  readonly id: string;
  readonly file: string;
  #handle: Deno.FsFile | null;
  #tail: Promise<void> = Promise.resolve();
  #lock: SessionLock | null = null;
  #closed = false;
  /** A prepared session not yet on disk: its header and the records staged before the first user turn. */
  #pending: { dir: string; records: SessionRecord[] } | null = null;

  /** Use `SessionStore.create`, `SessionStore.prepare` or `SessionStore.open`. */
  constructor(id: string, file: string, handle: Deno.FsFile | null) {
    this.id = id;
    this.file = file;
    this.#handle = handle;
  }

  /**
   * A new session that is written only when its first user message is appended: until then appends
   * are held in memory, so opening a face and leaving (or `/new`, `/clear`) leaves no empty session.
   */
  static prepare(sessionsDir: string, header: CreateSessionOptions): SessionStore {
    const now = header.now ?? new Date();
    const dir = workspaceDir(sessionsDir, header.workspace);
    const id = newSessionId(now);
    const store = new SessionStore(id, join(dir, `${id}.jsonl`), null);
    store.#pending = {
      dir,
      records: [headerRecord(id, header, now)],
    };
    return store;
  }

  /** What a prepared session holds in memory (its header first); empty once it is on disk. */
  get staged(): readonly SessionRecord[] {
    return this.#pending?.records ?? [];
  }

  /** False while a prepared session has not reached its first user turn. */
  get written(): boolean {
    return this.#pending === null;
  }

  static async create(sessionsDir: string, header: CreateSessionOptions): Promise<SessionStore> {
    const now = header.now ?? new Date();
    const dir = workspaceDir(sessionsDir, header.workspace);
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dir, 0o700);
    const { id, file, handle } = await createSessionFile(dir, now);
    const store = new SessionStore(id, file, handle);
    try {
      await store.append(headerRecord(id, header, now));
    } catch (error) {
      store.close();
      throw error;
    }
    return store;
  }

  /**
   * Reopens a session for appending, as its only writer (`session.locked` names the process that holds
   * it). A torn last line is cut off first so the file stays valid JSONL, and a turn a killed process
   * left open is closed before anything else is appended.
   */
  static async open(file: string): Promise<{ store: SessionStore; session: LoadedSession }> {
    await readSessionFile(file, { statOnly: true });
    const lock = await SessionLock.acquire(file);
    let store: SessionStore | undefined;
    try {
      const bytes = await readSessionFile(file);
      const { session, keep } = parseSession(bytes, file);
      if (keep < bytes.length) await Deno.truncate(file, keep);
      store = new SessionStore(session.header.id, file, await Deno.open(file, { write: true, append: true }));
      store.#lock = lock;
      if (keep > 0 && bytes[keep - 1] !== NEWLINE) await store.#write(new Uint8Array([NEWLINE]));
      await store.#closeInterruptedTurn(session);
      return { store, session };
    } catch (error) {
      if (store) store.close();
      else lock.release();
      throw error;
    }
  }

  async #closeInterruptedTurn(session: LoadedSession): Promise<void> {
    const tail = interruptedTail(session.messages);
    if (tail.length === 0) return;
    const records: SessionRecord[] = [
      ...tail.map((message) => ({ type: "message" as const, message })),
      { type: "event", name: REPAIRED_EVENT, data: { messages: tail.length }, at: new Date().toISOString() },
    ];
    await this.appendMany(records);
    session.messages.push(...tail);
    session.records.push(...records);
  }

  append(record: SessionRecord): Promise<void> {
    return this.appendMany([record]);
  }

  /** All records go out in one write and one sync. Appends are serialised in call order. */
  appendMany(records: SessionRecord[]): Promise<void> {
    if (this.#closed || (this.#handle === null && this.#pending === null)) {
      return Promise.reject(
        new ReasonixError("session.closed", `Cannot append to session "${this.id}": the store is closed`),
      );
    }
    for (const record of records) {
      if (!isSessionRecord(record)) {
        throw new TypeError(`Cannot append to session "${this.id}": not a record`);
      }
    }
    if (records.length === 0) return this.#tail;
    const pending = this.#pending;
    if (pending !== null) {
      pending.records.push(...records);
      if (!records.some((r) => r.type === "message" && r.message.role === "user")) return this.#tail;
      this.#pending = null;
      records = pending.records;
    }
    const bytes = ENCODER.encode(records.map((record) => JSON.stringify(record) + "\n").join(""));
    const write = pending === null ? () => this.#write(bytes) : () => this.#materialize(pending.dir, bytes);
    const run = this.#tail.then(write);
    this.#tail = run.catch(() => {});
    return run;
  }

  /**
   * Records staged before the first user message (the system prompt, the session context): kept in
   * memory and written with that message. A written session appends them at once.
   */
  stage(records: SessionRecord[]): Promise<void> {
    if (this.#pending === null) return this.appendMany(records);
    this.#pending.records.push(...records);
    return this.#tail;
  }

  /** Closes the file at once: await pending appends before calling it. */
  close(): void {
    this.#handle?.close();
    this.#handle = null;
    this.#pending = null;
    this.#closed = true;
    this.#lock?.release();
    this.#lock = null;
  }

  async #materialize(dir: string, bytes: Uint8Array): Promise<void> {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.chmod(dir, 0o700);
    const handle = await Deno.open(this.file, { write: true, append: true, createNew: true, mode: 0o600 });
    try {
      this.#lock = await SessionLock.acquire(this.file);
    } catch (error) {
      handle.close();
      throw error;
    }
    this.#handle = handle;
    await this.#write(bytes);
  }

  async #write(bytes: Uint8Array): Promise<void> {
    const handle = this.#handle;
    if (handle === null) {
      throw new ReasonixError("session.closed", `Cannot append to session "${this.id}": the store is closed`);
    }
    let offset = 0;
    while (offset < bytes.length) offset += await handle.write(bytes.subarray(offset));
    await handle.syncData();
  }
}

function headerRecord(id: string, header: CreateSessionOptions, now: Date): SessionHeader {
  return {
    type: "session",
    v: 1,
    id,
    workspace: resolve(header.workspace),
    createdAt: now.toISOString(),
    model: header.model,
    provider: header.provider,
  };
}

/** Reads a session without taking its lock: for listings and `session show`, never for appending. */
export async function loadSession(file: string): Promise<LoadedSession> {
  return parseSession(await readSessionFile(file), file).session;
}

/** `<yyyyMMdd-HHmmss>-<8 hex>` in UTC: sorts by creation time, unique by the random tail. */
export function newSessionId(now: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  const random = Array.from(
    crypto.getRandomValues(new Uint8Array(4)),
    (byte) => byte.toString(16).padStart(2, "0"),
  );
  return `${date}-${time}-${random.join("")}`;
}

async function createSessionFile(
  dir: string,
  now: Date,
): Promise<{ id: string; file: string; handle: Deno.FsFile }> {
  for (let attempt = 1;; attempt++) {
    const id = newSessionId(now);
    const file = join(dir, `${id}.jsonl`);
    try {
      const handle = await Deno.open(file, { write: true, append: true, createNew: true, mode: 0o600 });
      return { id, file, handle };
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists) || attempt >= MAX_ID_ATTEMPTS) throw error;
    }
  }
}

async function readSessionFile(file: string, options: { statOnly?: boolean } = {}): Promise<Uint8Array> {
  try {
    if (options.statOnly) {
      await Deno.stat(file);
      return new Uint8Array();
    }
    return await Deno.readFile(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new ReasonixError("session.not_found", `Cannot load session "${file}": no such file`, {
        cause: error,
      });
    }
    throw error;
  }
}

interface Line {
  start: number;
  end: number;
  text: string | null;
}

/** `keep` is the byte length of the valid prefix: everything from the torn last line on is dropped. */
function parseSession(bytes: Uint8Array, file: string): { session: LoadedSession; keep: number } {
  const lines = splitLines(bytes).filter((line) => line.text === null || line.text.trim() !== "");
  const records: SessionRecord[] = [];
  let keep = bytes.length;
  let tornTail = false;
  for (const [index, line] of lines.entries()) {
    const record = parseRecord(line.text);
    if (record !== undefined) {
      records.push(record);
    } else if (index === lines.length - 1) {
      tornTail = true;
      keep = line.start;
    } else {
      throw corrupt(file, `line ${lineNumber(bytes, line.start)} is not a valid session record`);
    }
  }
  const header = records[0];
  if (header === undefined) throw corrupt(file, "no session header");
  if (header.type !== "session") throw corrupt(file, "line 1 is not a session header");
  if (records.slice(1).some((record) => record.type === "session")) {
    throw corrupt(file, "more than one session header");
  }
  return { session: { header, messages: repairHistory(replayedMessages(records)), records, tornTail }, keep };
}

function replayedMessages(records: readonly SessionRecord[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const record of records) {
    if (record.type === "message") messages.push(record.message);
    if (resetsHistory(record)) messages.splice(0, messages.length, ...record.messages);
  }
  return messages;
}

/** Records that replace the replayed history (compaction, rewind, switch); the records before stay. */
export function resetsHistory(
  record: SessionRecord,
): record is Extract<SessionRecord, { type: "compaction" | "rewind" | "switch" }> {
  return record.type === "compaction" || record.type === "rewind" || record.type === "switch";
}

function splitLines(bytes: Uint8Array): Line[] {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const lines: Line[] = [];
  let start = 0;
  while (start < bytes.length) {
    const newline = bytes.indexOf(NEWLINE, start);
    const end = newline === -1 ? bytes.length : newline + 1;
    let text: string | null;
    try {
      text = decoder.decode(bytes.subarray(start, newline === -1 ? end : newline));
    } catch {
      text = null;
    }
    lines.push({ start, end, text });
    start = end;
  }
  return lines;
}

function parseRecord(text: string | null): SessionRecord | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isSessionRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isSessionRecord(value: unknown): value is SessionRecord {
  if (!isObject(value)) return false;
  switch (value.type) {
    case "session":
      return value.v === 1 && typeof value.id === "string" && typeof value.workspace === "string" &&
        typeof value.createdAt === "string" && typeof value.model === "string" &&
        typeof value.provider === "string";
    case "message":
      return isObject(value.message) && typeof value.message.role === "string";
    case "usage":
      return isObject(value.usage) && typeof value.model === "string" && typeof value.at === "string";
    case "event":
      return typeof value.name === "string" && typeof value.at === "string";
    case "compaction":
      return Array.isArray(value.messages) && value.messages.every(isObject) && typeof value.at === "string";
    case "rewind":
    case "switch":
      return typeof value.to === "number" && Array.isArray(value.messages) &&
        value.messages.every(isObject) && typeof value.at === "string" &&
        (value.type === "rewind"
          ? value.branch === undefined || typeof value.branch === "string"
          : typeof value.name === "string");
    case "branch":
      return typeof value.name === "string" && typeof value.at === "string";
    case "entry":
      return isObject(value.entry) && typeof value.entry.kind === "string" && typeof value.at === "string";
    default:
      return false;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function lineNumber(bytes: Uint8Array, offset: number): number {
  let count = 1;
  for (let index = 0; index < offset; index++) if (bytes[index] === NEWLINE) count++;
  return count;
}

function corrupt(file: string, detail: string): ReasonixError {
  return new ReasonixError("session.corrupt", `Cannot load session "${file}": ${detail}`);
}
