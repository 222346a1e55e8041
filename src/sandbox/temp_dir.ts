/**
 * @module
 * One private temp dir per session (mode 0700), shared by all of its commands and exported as
 * TMPDIR/TMP/TEMP. It lives under the state dir, never in the host's public temp root.
 */
import { join } from "node:path";

export class SessionTempDir {
  readonly #parent: string;
  #path: string;

  private constructor(parent: string, path: string) {
    this.#parent = parent;
    this.#path = path;
  }

  /** Creates `<parent>/<random>` with mode 0700; `parent` is created too when missing. */
  static async create(parent: string): Promise<SessionTempDir> {
    return new SessionTempDir(parent, await makePrivateDir(parent));
  }

  get path(): string {
    return this.#path;
  }

  /** A fresh dir for a new session or branch; the old one is removed. */
  async rotate(): Promise<void> {
    const old = this.#path;
    this.#path = await makePrivateDir(this.#parent);
    await removeQuietly(old);
  }

  async remove(): Promise<void> {
    await removeQuietly(this.#path);
  }
}

async function makePrivateDir(parent: string): Promise<string> {
  await Deno.mkdir(parent, { recursive: true, mode: 0o700 });
  const path = await Deno.makeTempDir({ dir: parent, prefix: "session-" });
  if (Deno.build.os !== "windows") await Deno.chmod(path, 0o700);
  return await Deno.realPath(path);
}

async function removeQuietly(path: string): Promise<void> {
  try {
    await Deno.remove(path, { recursive: true });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/** Where a state home keeps its session temp dirs. */
export function tempRoot(stateHome: string): string {
  return join(stateHome, "tmp");
}
