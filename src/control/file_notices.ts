/**
 * @module
 * Files the model read or wrote are remembered with their modification time; when one changes on disk
 * between user turns (an editor, git, a formatter), the next turn says so in its tail, so the model does
 * not act on a stale copy and nothing earlier in the conversation has to change.
 */
import { isAbsolute, relative, resolve } from "node:path";

/** Tools whose `path` argument names a file the model has now seen as it is. */
const FILE_TOOLS = new Set([
  "read_file",
  "write_file",
  "edit_file",
  "multi_edit",
  "delete_range",
  "delete_symbol",
  "notebook_edit",
]);

export class FileNotices {
  #root: string;
  #seen = new Map<string, number | null>();
  #pendingCalls = new Map<string, string>();
  #work: Promise<unknown>[] = [];

  constructor(root: string) {
    this.#root = root;
  }

  /** Called with each tool call; the path is remembered once the call succeeds. */
  onCall(callId: string, name: string, rawArguments: string): void {
    if (!FILE_TOOLS.has(name)) return;
    const path = pathArgument(rawArguments);
    if (path) this.#pendingCalls.set(callId, resolve(this.#root, path));
  }

  onResult(callId: string, ok: boolean): void {
    const path = this.#pendingCalls.get(callId);
    this.#pendingCalls.delete(callId);
    if (ok && path) this.#work.push(this.#stamp(path));
  }

  /** A file the model has just seen another way (an `@path` mention attached its text). */
  seen(path: string): void {
    this.#work.push(this.#stamp(path));
  }

  /** Notes for the next user turn: files changed or removed since the model last saw them. */
  async changes(): Promise<string[]> {
    await Promise.all(this.#work.splice(0));
    const changed: string[] = [];
    for (const [path, seen] of this.#seen) {
      const now = await mtime(path);
      if (now === seen) continue;
      this.#seen.set(path, now);
      changed.push(now === null ? `${this.#show(path)} (removed)` : this.#show(path));
    }
    if (changed.length === 0) return [];
    return [`Changed on disk since you last read or wrote them: ${changed.join(", ")}.`];
  }

  async #stamp(path: string): Promise<void> {
    this.#seen.set(path, await mtime(path));
  }

  #show(path: string): string {
    const rel = relative(this.#root, path);
    return rel.startsWith("..") || isAbsolute(rel) ? path : rel;
  }
}

function pathArgument(raw: string): string | undefined {
  try {
    const args = JSON.parse(raw) as { path?: unknown };
    return typeof args.path === "string" && args.path !== "" ? args.path : undefined;
  } catch {
    return undefined;
  }
}

async function mtime(path: string): Promise<number | null> {
  try {
    return (await Deno.stat(path)).mtime?.getTime() ?? null;
  } catch {
    return null;
  }
}
