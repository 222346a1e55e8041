/**
 * @module
 * A workspace's sessions with what a listing shows (title, turns, model, cost, last activity), fast
 * for thousands of sessions: a summary cache (`index.json` beside the sessions) keyed by id and valid
 * while the file keeps the size it had when summarised. Only new or grown sessions are read whole;
 * the cache is rewritten atomically, and a lost or damaged cache only costs one slow listing.
 */
import { join, resolve } from "node:path";
import { writeFileAtomic } from "../lib/atomic_fs.ts";
import { workspaceDir } from "./_paths.ts";
import { childSpendOf } from "./child_spend.ts";
import { type SessionDetails, sessionDetails } from "./details.ts";
import type { SessionSummary } from "./resume.ts";
import { loadSession, type SessionRecord } from "./store.ts";

export interface SessionListing extends SessionSummary, SessionDetails {
  /** The model of the last priced request, else the one the session started with. */
  lastModel: string;
  cost: number | null;
  currency: string | null;
}

type CachedEntry = Omit<SessionListing, "file" | "modifiedAt">;

const INDEX_FILE = "index.json";
const INDEX_VERSION = 2; // 2: subagent sessions' `child` details

/** Newest activity first; sessions that no longer load are left out. */
export async function listWorkspaceSessions(
  sessionsDir: string,
  workspace: string,
): Promise<SessionListing[]> {
  const dir = workspaceDir(sessionsDir, workspace);
  const names = sessionNames(dir);
  if (names.length === 0) return [];
  const cache = await readIndex(dir);
  const fresh: Record<string, CachedEntry> = {};
  const listed: SessionListing[] = [];
  let changed = Object.keys(cache).length !== names.length;
  for (const name of names) {
    const file = join(dir, name);
    const id = name.slice(0, -".jsonl".length);
    const info = statOf(file);
    if (info === undefined) continue;
    let entry: CachedEntry | undefined = cache[id];
    if (entry?.bytes !== info.size) {
      entry = await summarise(file, info.size);
      changed = true;
    }
    if (entry === undefined) continue;
    fresh[id] = entry;
    listed.push({ ...entry, file, modifiedAt: (info.mtime ?? new Date(0)).toISOString() });
  }
  if (changed) await writeIndex(dir, fresh);
  return listed.sort(byActivity);
}

/** The newest session of the workspace that holds at least one user turn (what `-c` continues). */
export async function latestWithTurns(sessionsDir: string, workspace: string): Promise<string | undefined> {
  // A subagent's session is its parent's business: `-c` continues the conversation a person had.
  return (await listWorkspaceSessions(sessionsDir, workspace)).find((s) => s.turns > 0 && !s.parent)?.file;
}

export function summariseRecords(
  records: readonly SessionRecord[],
): Omit<SessionListing, keyof SessionSummary> {
  let cost: number | null = null;
  let currency: string | null = null;
  let lastModel: string | null = null;
  for (const record of records) {
    const child = childSpendOf(record); // what a subagent spent counts in its parent's COST
    if (child?.cost != null) {
      cost = (cost ?? 0) + child.cost;
      currency = child.currency ?? currency;
    }
    if (record.type !== "usage") continue;
    lastModel = record.model;
    if (record.cost !== null) {
      cost = (cost ?? 0) + record.cost;
      currency = record.currency;
    }
  }
  const header = records[0];
  const started = header?.type === "session" ? header.model : "";
  return { ...sessionDetails(records), lastModel: lastModel ?? started, cost, currency };
}

async function summarise(file: string, bytes: number): Promise<CachedEntry | undefined> {
  try {
    const { header, records } = await loadSession(file);
    return {
      id: header.id,
      workspace: resolve(header.workspace),
      createdAt: header.createdAt,
      model: header.model,
      provider: header.provider,
      bytes,
      ...summariseRecords(records),
    };
  } catch {
    return undefined;
  }
}

function sessionNames(dir: string): string[] {
  const names: string[] = [];
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isFile && entry.name.endsWith(".jsonl")) names.push(entry.name);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return names;
}

/** Synchronous on purpose: thousands of async stats cost several times more in Deno. */
function statOf(file: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(file);
  } catch {
    return undefined;
  }
}

async function readIndex(dir: string): Promise<Record<string, CachedEntry>> {
  try {
    const value = JSON.parse(await Deno.readTextFile(join(dir, INDEX_FILE)));
    return value?.v === INDEX_VERSION && typeof value.sessions === "object" ? value.sessions : {};
  } catch {
    return {};
  }
}

async function writeIndex(dir: string, sessions: Record<string, CachedEntry>): Promise<void> {
  try {
    await writeFileAtomic(join(dir, INDEX_FILE), JSON.stringify({ v: INDEX_VERSION, sessions }), {
      mode: 0o600,
    });
  } catch {
    // A read-only state dir still lists; the next listing reads the sessions again.
  }
}

function byActivity(a: SessionListing, b: SessionListing): number {
  if (a.modifiedAt !== b.modifiedAt) return a.modifiedAt < b.modifiedAt ? 1 : -1;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
