/**
 * @module
 * File checkpoints beside a session, never git: one JSON per checkpoint, an index, and the contents as
 * sha256-named blobs shared between checkpoints. Every file is written atomically, so a damaged
 * checkpoint loses only itself. A turn's checkpoint holds each file's content at its first touch in
 * that turn (null: the file did not exist) and the hash of what Reasonix last wrote there.
 */
import { join } from "node:path";
import { writeFileAtomic } from "../lib/atomic_fs.ts";

export interface CheckpointFile {
  /** Absolute path. */
  path: string;
  /** Blob hash of the content before the first write; null when the file did not exist. */
  before: string | null;
  /** Hash of what Reasonix last wrote; null when it removed the file. */
  after: string | null;
}

export interface Checkpoint {
  v: 1;
  /** Zero-padded sequence number: ids sort in the order checkpoints were opened. */
  id: string;
  /** `turn`: opened at a user turn; `undo`: the files a restore was about to overwrite. */
  kind: "turn" | "undo";
  /** The turn's prompt, or what the restore did. */
  label: string;
  at: string;
  files: CheckpointFile[];
  /** An undo checkpoint of a conversation restore: the session record to return the conversation to. */
  conversationTo?: number;
}

export interface FileWrite {
  abs: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
}

const INDEX = "index.json";
const ID_WIDTH = 6;

/** `<session>.checkpoints/` beside `<session>.jsonl`. */
export function checkpointDirFor(sessionFile: string): string {
  return sessionFile.replace(/\.jsonl$/, "") + ".checkpoints";
}

export class CheckpointStore {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  /** Every readable checkpoint, oldest first; a damaged one is skipped. */
  async list(): Promise<Checkpoint[]> {
    const found: Checkpoint[] = [];
    for (const name of await this.#names()) {
      const checkpoint = await this.read(name.slice(0, -".json".length));
      if (checkpoint !== null) found.push(checkpoint);
    }
    return found;
  }

  async read(id: string): Promise<Checkpoint | null> {
    try {
      const value = JSON.parse(await Deno.readTextFile(join(this.dir, `${id}.json`)));
      return isCheckpoint(value) ? value : null;
    } catch {
      return null;
    }
  }

  async open(
    kind: Checkpoint["kind"],
    label: string,
    options: { at: Date; conversationTo?: number },
  ): Promise<Checkpoint> {
    const names = await this.#names();
    const last = Number(names.at(-1)?.slice(0, ID_WIDTH) ?? "0");
    const checkpoint: Checkpoint = {
      v: 1,
      id: String(last + 1).padStart(ID_WIDTH, "0"),
      kind,
      label,
      at: options.at.toISOString(),
      files: [],
      ...(options.conversationTo === undefined ? {} : { conversationTo: options.conversationTo }),
    };
    await this.save(checkpoint);
    return checkpoint;
  }

  /** Records writes: a path's first write keeps its content before; every write updates `after`. */
  async record(checkpoint: Checkpoint, writes: readonly FileWrite[]): Promise<void> {
    for (const write of writes) {
      const after = write.after === null ? null : await sha256(write.after);
      const known = checkpoint.files.find((file) => file.path === write.abs);
      if (known) {
        known.after = after;
        continue;
      }
      const before = write.before === null ? null : await this.putBlob(write.before);
      checkpoint.files.push({ path: write.abs, before, after });
    }
    await this.save(checkpoint);
  }

  async save(checkpoint: Checkpoint): Promise<void> {
    await Deno.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(join(this.dir, `${checkpoint.id}.json`), JSON.stringify(checkpoint) + "\n", {
      mode: 0o600,
    });
    await this.#writeIndex();
  }

  async putBlob(bytes: Uint8Array): Promise<string> {
    const hash = await sha256(bytes);
    const file = join(this.dir, "blobs", hash);
    try {
      await Deno.lstat(file);
    } catch {
      await writeFileAtomic(file, bytes, { mkdirs: true, mode: 0o600 });
    }
    return hash;
  }

  /** The blob's bytes; null when it is missing or does not match its hash (damaged). */
  async blob(hash: string): Promise<Uint8Array | null> {
    try {
      const bytes = await Deno.readFile(join(this.dir, "blobs", hash));
      return (await sha256(bytes)) === hash ? bytes : null;
    } catch {
      return null;
    }
  }

  /** Drops checkpoints older than `days`, then blobs no checkpoint refers to. */
  async prune(days: number, now: Date): Promise<void> {
    const cutoff = now.getTime() - days * 86_400_000;
    const kept = new Set<string>();
    for (const checkpoint of await this.list()) {
      if (Date.parse(checkpoint.at) < cutoff) {
        await Deno.remove(join(this.dir, `${checkpoint.id}.json`)).catch(() => {});
        continue;
      }
      for (const file of checkpoint.files) if (file.before) kept.add(file.before);
    }
    for (const entry of await readDirOrEmpty(join(this.dir, "blobs"))) {
      if (!kept.has(entry)) await Deno.remove(join(this.dir, "blobs", entry)).catch(() => {});
    }
    await this.#writeIndex();
  }

  async #names(): Promise<string[]> {
    return (await readDirOrEmpty(this.dir)).filter((name) => /^\d+\.json$/.test(name)).sort();
  }

  /** A summary for readers that want no blob; the checkpoint files stay the source of truth. */
  async #writeIndex(): Promise<void> {
    const entries = (await this.list()).map((checkpoint) => ({
      id: checkpoint.id,
      kind: checkpoint.kind,
      label: checkpoint.label,
      at: checkpoint.at,
      files: checkpoint.files.length,
    }));
    await writeFileAtomic(join(this.dir, INDEX), JSON.stringify({ v: 1, checkpoints: entries }) + "\n", {
      mode: 0o600,
    });
  }
}

export async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function readDirOrEmpty(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names;
}

function isCheckpoint(value: unknown): value is Checkpoint {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return record.v === 1 && typeof record.id === "string" && typeof record.label === "string" &&
    (record.kind === "turn" || record.kind === "undo") && typeof record.at === "string" &&
    Array.isArray(record.files) &&
    record.files.every((file) => typeof file === "object" && file !== null && typeof file.path === "string");
}
