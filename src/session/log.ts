/**
 * @module
 * The session as an append-only event log: every record gets a sequence number, the provider history
 * is derived from the `message` records and the records that reset it (compaction, rewind, switch), and nobody edits that history in place.
 * Records written before `seq` existed are numbered by their position, so old and new files agree.
 */
import type { ChatMessage } from "../provider/provider.ts";
import { repairHistory } from "./repair.ts";
import { resetsHistory, type SessionHeader, type SessionRecord, type SessionStore } from "./store.ts";

export type LoggedRecord = SessionRecord & { seq: number };

type LogListener = (records: readonly LoggedRecord[]) => void;

export class SessionLog {
  readonly store: SessionStore;
  #records: LoggedRecord[] = [];
  /** Numbered when append is called, so concurrent appends keep call order (the store writes in it). */
  #seq = 0;
  #messages: ChatMessage[] = [];
  #listeners = new Set<LogListener>();

  /** `loaded`: the records already in the store's file, header first. */
  constructor(store: SessionStore, loaded: readonly SessionRecord[]) {
    this.store = store;
    for (const record of loaded) this.#fold({ ...record, seq: nextSeq(this.#records, record.seq) });
    // A killed process can leave a call without its result, or results out of place: replay them valid.
    this.#messages = repairHistory(this.#messages);
    this.#seq = this.lastSeq;
  }

  get id(): string {
    return this.store.id;
  }

  get file(): string {
    return this.store.file;
  }

  get header(): SessionHeader {
    return this.#records[0] as LoggedRecord & SessionHeader;
  }

  /** The seq of the newest record; a face that saw it is up to date. */
  get lastSeq(): number {
    return this.#records.at(-1)?.seq ?? 0;
  }

  /** The seq of the newest record of `type`, 0 when there is none. */
  lastSeqOf(type: SessionRecord["type"]): number {
    return this.#records.findLast((record) => record.type === type)?.seq ?? 0;
  }

  /** The provider history as the next request replays it; never mutate. */
  messages(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** Records with a seq above `fromSeq`, oldest first. */
  since(fromSeq = 0): readonly LoggedRecord[] {
    const start = this.#records.findIndex((record) => record.seq > fromSeq);
    return start < 0 ? [] : this.#records.slice(start);
  }

  /** Persists the records in one write, then folds them into the history and tells listeners. */
  append(...records: SessionRecord[]): Promise<LoggedRecord[]> {
    return this.#add(records, (numbered) => this.store.appendMany(numbered));
  }

  /** Like append, but a session not yet on disk keeps them in memory until its first user turn. */
  stage(...records: SessionRecord[]): Promise<LoggedRecord[]> {
    return this.#add(records, (numbered) => this.store.stage(numbered));
  }

  async #add(
    records: SessionRecord[],
    persist: (numbered: LoggedRecord[]) => Promise<void>,
  ): Promise<LoggedRecord[]> {
    const numbered = records.map((record) => ({ ...record, seq: ++this.#seq }) as LoggedRecord);
    await persist(numbered);
    for (const record of numbered) this.#fold(record);
    for (const listener of this.#listeners) listener(numbered);
    return numbered;
  }

  onAppend(listener: LogListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #fold(record: LoggedRecord): void {
    this.#records.push(record);
    if (record.type === "message") this.#messages.push(record.message);
    if (resetsHistory(record)) this.#messages = [...record.messages];
  }
}

function nextSeq(records: readonly LoggedRecord[], stored: number | undefined): number {
  const last = records.at(-1)?.seq ?? 0;
  return stored !== undefined && stored > last ? stored : last + 1;
}
