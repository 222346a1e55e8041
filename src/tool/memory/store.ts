/**
 * @module
 * Where remembered facts live: `<state>/memory/global/` and `<state>/memory/projects/<slug>-<hash>/`
 * (keyed by the workspace's absolute path). Each holds `<id>.md` per active fact, `MEMORY.md` (the
 * index people read) and `history/<id>/<revision>.md`, every revision ever written and never
 * overwritten. Writes are atomic; a symlink anywhere under `<state>/memory`, a file that claims another
 * id, or a revision that already exists is refused, so a planted file can redirect nothing.
 */
import { createHash } from "node:crypto";
import { basename, join, resolve } from "node:path";
import { writeFileAtomic } from "../../lib/atomic_fs.ts";
import { type Fact, type FactScope, formatFact, ID_PATTERN, parseFact } from "./fact.ts";
import { memoryIndexFile } from "./index_text.ts";
import { ToolError } from "../tool.ts";

export const INDEX_FILE = "MEMORY.md";
const HISTORY_DIR = "history";
/** A fact file larger than this is not one of ours. */
const MAX_FILE_BYTES = 64 * 1024;
const MAX_SLUG = 40;

/** `<state>/memory`: hidden from the model's tools like the rest of the state, written by the kernel. */
export function memoryRoot(stateHome: string): string {
  return join(stateHome, "memory");
}

/** The project's memory directory under `root`: `projects/<basename-slug>-<sha256(abs path)[:12]>`. */
export function projectMemoryDir(root: string, workspace: string): string {
  const abs = resolve(workspace);
  const hash = createHash("sha256").update(abs).digest("hex").slice(0, 12);
  const slug = basename(abs).toLowerCase().replace(/[^a-z0-9._]+/g, "-").replace(/^[-.]+|-+$/g, "")
    .slice(0, MAX_SLUG);
  return join(root, "projects", `${slug || "workspace"}-${hash}`);
}

export class MemoryStore {
  readonly root: string;
  readonly #dirs: Record<FactScope, string>;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: { root: string; workspace: string }) {
    this.root = options.root;
    this.#dirs = {
      project: projectMemoryDir(options.root, options.workspace),
      global: join(options.root, "global"),
    };
  }

  dirOf(scope: FactScope): string {
    return this.#dirs[scope];
  }

  /** Active facts of a scope (both when absent), project first, each scope oldest first. */
  async list(scope?: FactScope): Promise<Fact[]> {
    const scopes: FactScope[] = scope ? [scope] : ["project", "global"];
    const lists = await Promise.all(scopes.map((one) => this.#listScope(one)));
    return lists.flat();
  }

  /** A fact by id or name; the project's wins over a global one of the same name. */
  async find(ref: string, scope?: FactScope): Promise<Fact | undefined> {
    const facts = await this.list(scope);
    return facts.find((fact) => fact.id === ref) ?? facts.find((fact) => fact.name === ref);
  }

  /** Every stored revision of a fact, oldest first (forgotten ones included). */
  async revisions(id: string, scope: FactScope): Promise<Fact[]> {
    checkId(id);
    const dir = join(this.#dirs[scope], HISTORY_DIR, id);
    if (!(await this.#safeExisting(dir, scope))) return [];
    const found: Fact[] = [];
    for await (const entry of Deno.readDir(dir)) {
      const revision = /^(\d{1,6})\.md$/.exec(entry.name)?.[1];
      if (!entry.isFile || revision === undefined) continue;
      const fact = await readFact(join(dir, entry.name));
      if (fact && fact.id === id && fact.scope === scope && fact.revision === Number(revision)) {
        found.push(fact);
      }
    }
    return found.sort((a, b) => a.revision - b.revision);
  }

  /** The latest revision of a fact, active or forgotten. */
  async latest(id: string, scope: FactScope): Promise<Fact | undefined> {
    return (await this.revisions(id, scope)).at(-1);
  }

  /**
   * Writes `next` as the fact's new revision: `previous` must be what is stored now (null: a new fact).
   * The old revision stays in history; a forgotten fact leaves the directory and the index.
   */
  write(next: Fact, previous: Fact | null): Promise<Fact> {
    const run = this.#queue.then(() => this.#write(next, previous));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #write(next: Fact, previous: Fact | null): Promise<Fact> {
    checkId(next.id);
    const dir = await this.#safeDir(next.scope);
    const latest = await this.latest(next.id, next.scope);
    if (
      (latest?.revision ?? 0) !== (previous?.revision ?? 0) || next.revision !== (latest?.revision ?? 0) + 1
    ) {
      throw new ToolError(
        "memory.conflict",
        `Memory "${next.id}" changed meanwhile (now at revision ${latest?.revision ?? 0}); read it again`,
      );
    }
    const historyDir = join(dir, HISTORY_DIR, next.id);
    await this.#safeDir(next.scope, [HISTORY_DIR, next.id]);
    await writeNew(join(historyDir, `${next.revision}.md`), formatFact(next));
    const current = join(dir, `${next.id}.md`);
    await refuseSymlink(current);
    if (next.status === "active") await writeFileAtomic(current, formatFact(next), { mode: 0o600 });
    else await Deno.remove(current).catch(ignoreMissing);
    await this.#writeIndex(next.scope);
    return next;
  }

  async #writeIndex(scope: FactScope): Promise<void> {
    const file = join(this.#dirs[scope], INDEX_FILE);
    await refuseSymlink(file);
    await writeFileAtomic(file, memoryIndexFile(await this.#listScope(scope), scope), { mode: 0o600 });
  }

  async #listScope(scope: FactScope): Promise<Fact[]> {
    const dir = this.#dirs[scope];
    if (!(await this.#safeExisting(dir, scope))) return [];
    const facts: Fact[] = [];
    for await (const entry of Deno.readDir(dir)) {
      const id = entry.name.endsWith(".md") ? entry.name.slice(0, -3) : "";
      if (!entry.isFile || !ID_PATTERN.test(id)) continue;
      const fact = await readFact(join(dir, entry.name));
      if (fact && fact.id === id && fact.scope === scope && fact.status === "active") facts.push(fact);
    }
    return facts.sort((a, b) =>
      a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1
    );
  }

  /** Creates the scope's directory (and `more` below it), refusing a symlink on the way. */
  async #safeDir(scope: FactScope, more: string[] = []): Promise<string> {
    const dir = this.#dirs[scope];
    const steps = [this.root, ...relativeSteps(this.root, dir), ...more];
    let path = "";
    for (const step of steps) {
      path = path === "" ? step : join(path, step);
      await refuseSymlink(path);
      // The state home itself may not exist yet; below it, each step is checked and made alone.
      await Deno.mkdir(path, { mode: 0o700, recursive: path === this.root }).catch((error) => {
        if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      });
    }
    return dir;
  }

  /** Whether `path` exists as a real directory under the root with no symlink on the way. */
  async #safeExisting(path: string, scope: FactScope): Promise<boolean> {
    const steps = [this.root, ...relativeSteps(this.root, path)];
    let current = "";
    for (const step of steps) {
      current = current === "" ? step : join(current, step);
      const info = await Deno.lstat(current).catch(() => null);
      if (info === null) return false;
      if (info.isSymlink || !info.isDirectory) {
        throw new ToolError(
          "memory.unsafe_path",
          `Memory of scope ${scope} is not read: "${current}" is a symlink`,
        );
      }
    }
    return true;
  }
}

function relativeSteps(root: string, path: string): string[] {
  const inside = path === root || path.startsWith(`${root}/`) || path.startsWith(`${root}\\`);
  const rest = path.slice(root.length).split(/[\\/]+/).filter((part) => part !== "");
  if (!inside || rest.includes("..")) {
    throw new ToolError("memory.unsafe_path", `Memory path "${path}" is outside "${root}"`);
  }
  return rest;
}

function checkId(id: string): void {
  if (!ID_PATTERN.test(id)) {
    throw new ToolError("memory.invalid_id", `"${id}" is not a memory id (ids look like "m-1a2b3c4d5e6f")`);
  }
}

async function readFact(path: string): Promise<Fact | null> {
  const info = await Deno.lstat(path).catch(() => null);
  if (!info?.isFile || info.size > MAX_FILE_BYTES) return null;
  return parseFact(await Deno.readTextFile(path));
}

async function refuseSymlink(path: string): Promise<void> {
  const info = await Deno.lstat(path).catch(() => null);
  if (info?.isSymlink) {
    throw new ToolError("memory.unsafe_path", `Memory is not written: "${path}" is a symlink`);
  }
}

/** A revision is written once: an existing file (or a planted symlink) there is a collision. */
async function writeNew(path: string, text: string): Promise<void> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) {
      throw new ToolError(
        "memory.collision",
        `Memory revision "${path}" already exists and is not overwritten`,
      );
    }
    throw error;
  }
  try {
    const bytes = new TextEncoder().encode(text);
    let written = 0;
    while (written < bytes.length) written += await file.write(bytes.subarray(written));
    await file.sync();
  } finally {
    file.close();
  }
}

function ignoreMissing(error: unknown): void {
  if (!(error instanceof Deno.errors.NotFound)) throw error;
}
