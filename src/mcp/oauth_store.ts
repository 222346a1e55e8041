/**
 * @module
 * What Reasonix keeps of a remote MCP server's OAuth: its client registration, tokens (with when the
 * access token expires), the PKCE verifier of a login under way and the discovery results. One file per
 * server under `<home>/mcp-auth/`, mode 0600, never in a project. The file is named after the server and
 * a hash of its URL, and remembers that URL: tokens a server at one URL got are never offered to a
 * server at another, whatever a project file names it.
 *
 * Writers hold a cross-process lock (an exclusive lock on `<file>.lock`): two sessions refreshing at
 * once take turns, and the second finds the first one's tokens instead of spending the refresh token
 * again (src/mcp/oauth_refresh.ts).
 */
import { join } from "node:path";
import type { OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { writeFileAtomic } from "../lib/atomic_fs.ts";

export interface StoredAuth {
  serverUrl: string;
  /** As the SDK gave it (with the `issuer` it was bound to). */
  clientInformation?: OAuthClientInformationMixed;
  /** The registration was made by Reasonix (dynamic registration), so it may be made again. */
  registered?: boolean;
  tokens?: OAuthTokens;
  /**
   * When the access token is due for a refresh, in ms since the epoch: its `expires_in` less a margin of
   * 30 s, or of half its lifetime when that is shorter.
   */
  expiresAt?: number;
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
}

/** A locked view of one server's file: read, then write what should replace it. */
export interface AuthTransaction {
  read(): Promise<StoredAuth>;
  write(auth: StoredAuth): Promise<void>;
}

/** Serialises this process's holders of one file before they take the file lock. */
const inProcess = new Map<string, Promise<unknown>>();

export class OAuthStore {
  readonly file: string;
  readonly serverUrl: string;

  private constructor(file: string, serverUrl: string) {
    this.file = file;
    this.serverUrl = serverUrl;
  }

  /** `dir` is `Paths.mcpAuthDir`; `name` is a checked server name (safe in a file name). */
  static async open(dir: string, name: string, serverUrl: string): Promise<OAuthStore> {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(serverUrl));
    const hash = [...new Uint8Array(digest)].slice(0, 8).map((b) => b.toString(16).padStart(2, "0")).join("");
    return new OAuthStore(join(dir, `${name}-${hash}.json`), serverUrl);
  }

  /** The stored state; nothing stored (or stored for another URL) reads as empty. */
  async read(): Promise<StoredAuth> {
    let text: string;
    try {
      text = await Deno.readTextFile(this.file);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return { serverUrl: this.serverUrl };
      throw error;
    }
    try {
      const stored = JSON.parse(text) as StoredAuth;
      return stored.serverUrl === this.serverUrl ? stored : { serverUrl: this.serverUrl };
    } catch {
      return { serverUrl: this.serverUrl };
    }
  }

  /** Reads, changes and writes under the lock. */
  async update(change: (auth: StoredAuth) => StoredAuth): Promise<StoredAuth> {
    return await this.locked(async (txn) => {
      const next = change(await txn.read());
      await txn.write(next);
      return next;
    });
  }

  /** Runs `body` holding the lock of this server's file, across processes. */
  locked<T>(body: (txn: AuthTransaction) => Promise<T>): Promise<T> {
    const before = inProcess.get(this.file) ?? Promise.resolve();
    const run = before.catch(() => {}).then(() => this.#withFileLock(body));
    const tail = run.catch(() => {});
    inProcess.set(this.file, tail);
    tail.then(() => {
      if (inProcess.get(this.file) === tail) inProcess.delete(this.file);
    });
    return run;
  }

  /** Forgets everything stored for this server; true when there was something. */
  async remove(): Promise<boolean> {
    return await this.locked(async () => {
      try {
        await Deno.remove(this.file);
        return true;
      } catch (error) {
        if (error instanceof Deno.errors.NotFound) return false;
        throw error;
      }
    });
  }

  async #withFileLock<T>(body: (txn: AuthTransaction) => Promise<T>): Promise<T> {
    await Deno.mkdir(join(this.file, ".."), { recursive: true, mode: 0o700 });
    const lock = await Deno.open(`${this.file}.lock`, { create: true, write: true, mode: 0o600 });
    try {
      await lock.lock(true);
      return await body({ read: () => this.read(), write: (auth) => this.#write(auth) });
    } finally {
      lock.close();
    }
  }

  async #write(auth: StoredAuth): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify({ ...auth, serverUrl: this.serverUrl }, null, 2), {
      mode: 0o600,
    });
    if (Deno.build.os !== "windows") await Deno.chmod(this.file, 0o600);
  }
}

/** Tokens as they are stored: with the time their access token expires. */
export function withTokens(auth: StoredAuth, tokens: OAuthTokens, now = Date.now()): StoredAuth {
  const { expiresAt: _, ...rest } = auth;
  return {
    ...rest,
    tokens,
    ...(typeof tokens.expires_in === "number"
      ? { expiresAt: now + tokens.expires_in * 1000 - Math.min(30_000, tokens.expires_in * 500) }
      : {}),
  };
}
