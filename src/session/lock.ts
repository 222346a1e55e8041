/**
 * @module
 * One writer per session: an exclusive advisory lock (flock) on `<session>.lock`, holding the owner's
 * pid and start time so a refusal can name it. The kernel drops the lock when its process dies, however
 * it dies, so a lock left by a killed process is free again and pid reuse cannot keep it held.
 */
import { hostname } from "node:os";
import { basename } from "node:path";
import { ReasonixError } from "../lib/errors.ts";

export interface LockOwner {
  pid: number;
  /** When the owning process started, ISO 8601. */
  startedAt: string;
  host: string;
}

const ATTEMPTS = 3;
/** Locks this process holds, by path: a second Controller of the same process shares the first's lock. */
const HELD = new Map<string, { lock: SessionLock; count: number }>();

export function lockPath(sessionFile: string): string {
  return sessionFile.replace(/\.jsonl$/, "") + ".lock";
}

export class SessionLock {
  readonly path: string;
  #handle: Deno.FsFile | null;

  private constructor(path: string, handle: Deno.FsFile | null) {
    this.path = path;
    this.#handle = handle;
  }

  /** Takes the lock of `sessionFile`, or throws `session.locked` naming the process that holds it. */
  static async acquire(sessionFile: string): Promise<SessionLock> {
    const path = lockPath(sessionFile);
    const held = HELD.get(path);
    if (held) {
      held.count++;
      return held.lock;
    }
    const lock = await take(path, sessionFile);
    HELD.set(path, { lock, count: 1 });
    return lock;
  }

  /** Another holder in this process shares it: a Controller of this session is open. */
  get shared(): boolean {
    return (HELD.get(this.path)?.count ?? 0) > 1;
  }

  release(): void {
    const held = HELD.get(this.path);
    if (held && held.lock === this && --held.count > 0) return;
    HELD.delete(this.path);
    const handle = this.#handle;
    this.#handle = null;
    if (handle === null) return;
    try {
      Deno.removeSync(this.path);
    } catch {
      // Someone removed it already; the flock still goes with the handle.
    }
    handle.close();
  }

  static withHandle(path: string, handle: Deno.FsFile | null): SessionLock {
    return new SessionLock(path, handle);
  }
}

async function take(path: string, sessionFile: string): Promise<SessionLock> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const handle = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
    let locked: boolean;
    try {
      locked = await handle.tryLock(true);
    } catch {
      // A filesystem without flock: go on unlocked rather than refuse every session on it.
      handle.close();
      return SessionLock.withHandle(path, null);
    }
    if (!locked) {
      handle.close();
      throw lockedError(sessionFile, await readOwner(path));
    }
    // The previous owner may have removed the file between our open and our lock: lock the new one.
    if (!(await samePath(handle, path))) {
      handle.close();
      continue;
    }
    await handle.truncate(0);
    await handle.write(new TextEncoder().encode(JSON.stringify(currentOwner()) + "\n"));
    return SessionLock.withHandle(path, handle);
  }
  throw lockedError(sessionFile, await readOwner(path));
}

async function samePath(handle: Deno.FsFile, path: string): Promise<boolean> {
  try {
    const [open, named] = await Promise.all([handle.stat(), Deno.stat(path)]);
    return open.ino === named.ino && open.dev === named.dev;
  } catch {
    return false;
  }
}

function currentOwner(): LockOwner {
  let host = "";
  try {
    host = hostname();
  } catch {
    // No sys permission: the pid and start time still name the process.
  }
  return { pid: Deno.pid, startedAt: new Date(performance.timeOrigin).toISOString(), host };
}

export async function readOwner(path: string): Promise<LockOwner | undefined> {
  try {
    const value = JSON.parse(await Deno.readTextFile(path));
    return typeof value?.pid === "number" ? value as LockOwner : undefined;
  } catch {
    return undefined;
  }
}

function lockedError(sessionFile: string, owner: LockOwner | undefined): ReasonixError {
  const id = basename(sessionFile, ".jsonl");
  const who = owner
    ? `process ${owner.pid}${owner.host ? ` on ${owner.host}` : ""} (started at ${owner.startedAt})`
    : "another process";
  return new ReasonixError("session.locked", `Cannot open session "${id}": it is in use by ${who}`, {
    hint: "Wait for that process to finish, or start a new session without --continue",
  });
}
