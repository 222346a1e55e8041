/**
 * @module
 * The user turns of a session's current line, read from its records: a turn starts at its
 * `checkpoint` event, and a `rewind` or `switch` record returns to the line as it stood before an earlier record.
 */
import type { ChatMessage } from "../provider/provider.ts";
import { resetsHistory, type SessionRecord } from "./store.ts";

/** The event that opens a turn; `data` is `{ id }`, the turn's checkpoint. */
export const CHECKPOINT_EVENT = "checkpoint";

export interface SessionTurn {
  /** 1-based, in the current line. */
  turn: number;
  checkpointId: string;
  /** Index of the turn's checkpoint event in the records: the turn's state before it ran. */
  record: number;
  at: string;
}

/** The turns of the line as it stands after the first `end` records (default: all). */
export function turnsOf(records: readonly SessionRecord[], end = records.length): SessionTurn[] {
  let turns: SessionTurn[] = [];
  for (let index = 0; index < end; index++) {
    const record = records[index]!;
    if (record.type === "rewind" || record.type === "switch") {
      turns = turnsOf(records, Math.min(record.to, index));
    }
    const id = checkpointIdOf(record);
    if (id !== null) {
      turns.push({ turn: turns.length + 1, checkpointId: id, record: index, at: recordAt(record) });
    }
  }
  return turns.map((turn, index) => ({ ...turn, turn: index + 1 }));
}

/**
 * The indices of the records on the line as it stands after the first `end` records (default: all):
 * a `rewind` or `switch` record continues the line as it stood before record `to`.
 */
export function lineOf(records: readonly SessionRecord[], end = records.length): number[] {
  const lines = new Map<number, number[]>();
  const walk = (stop: number): number[] => {
    const known = lines.get(stop);
    if (known) return known;
    let line: number[] = [];
    for (let index = 0; index < stop; index++) {
      const record = records[index]!;
      if (record.type === "rewind" || record.type === "switch") line = [...walk(Math.min(record.to, index))];
      line.push(index);
    }
    lines.set(stop, line);
    return line;
  };
  return walk(end);
}

/** The provider history as it was replayed just before record `end`. */
export function historyBefore(records: readonly SessionRecord[], end: number): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (const record of records.slice(0, end)) {
    if (record.type === "message") messages.push(record.message);
    if (resetsHistory(record)) messages.splice(0, messages.length, ...record.messages);
  }
  return messages;
}

function checkpointIdOf(record: SessionRecord): string | null {
  if (record.type !== "event" || record.name !== CHECKPOINT_EVENT) return null;
  const data = record.data as { id?: unknown } | undefined;
  return typeof data?.id === "string" ? data.id : null;
}

function recordAt(record: SessionRecord): string {
  return "at" in record ? record.at : "";
}
