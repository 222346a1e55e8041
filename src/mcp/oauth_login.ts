/**
 * @module
 * `reasonix mcp login` and `logout` for a remote server. A login sets the stored tokens aside (keeping
 * the client registration; they come back if the login does not finish), listens for the callback on loopback, and connects: the server's 401 starts the
 * SDK's flow, which discovers the authorisation server, registers when it has to, and hands us the
 * authorisation URL to show. The code the browser brings back is exchanged by the SDK, and the
 * connection is made once more to prove the tokens work (a server that then asks for more scope gets
 * another round). A logout revokes the tokens where the server offers revocation, then forgets them.
 */
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReasonixError } from "../lib/errors.ts";
import { VERSION } from "../lib/version.ts";
import type { McpServerSpec } from "./expand.ts";
import { listenForCallback } from "./oauth_callback.ts";
import { McpOAuthProvider } from "./oauth_provider.ts";
import { revokeTokens } from "./oauth_revoke.ts";
import { OAuthStore, type StoredAuth } from "./oauth_store.ts";
import { StderrTail } from "./stderr_tail.ts";
import { openTransport } from "./transports.ts";

export interface LoginOptions {
  /** `Paths.mcpAuthDir`. */
  dir: string;
  /** Shows the authorisation URL (print it, open a browser). */
  open(url: URL): Promise<void> | void;
  /** How long to wait for the browser to come back. */
  timeoutMs: number;
  /** Ends the wait for the browser (the session that started the login closed). */
  signal?: AbortSignal;
  connectTimeoutMs: number;
  /** What a connected client does to prove the tokens work (default: list the tools); a step-up the
   * server asks for on the way runs another round. */
  probe?: (client: Client) => Promise<void>;
}

/** Rounds of authorisation one login may take (a step-up asks again). */
const ROUNDS = 3;

export async function loginMcpServer(spec: McpServerSpec, options: LoginOptions): Promise<void> {
  const url = remoteUrl(spec, "log in to");
  const store = await OAuthStore.open(options.dir, spec.name, url);
  const earlier = await store.read();
  const callback = listenForCallback(spec.oauth?.callbackPort ?? registeredPort(earlier) ?? 0);
  let done = false;
  await store.update(({ tokens: _, expiresAt: __, codeVerifier: ___, ...rest }) => rest);
  try {
    await store.update((auth) => forgetOtherRedirect(auth, callback.redirectUrl));
    const state = crypto.randomUUID();
    const provider = new McpOAuthProvider({
      name: spec.name,
      store,
      ...(spec.oauth ? { oauth: spec.oauth } : {}),
      login: {
        redirectUrl: callback.redirectUrl,
        state,
        open: (url) => options.open(checkedUrl(spec.name, url)),
      },
    });
    for (let round = 0; round < ROUNDS; round++) {
      const opened = openTransport(spec, { cwd: ".", env: {}, stderr: new StderrTail([]), oauth: provider });
      const client = new Client({ name: "reasonix", version: VERSION }, { capabilities: {} });
      try {
        await client.connect(opened.transport, { timeout: options.connectTimeoutMs });
        await (options.probe?.(client) ?? client.listTools(undefined, { timeout: options.connectTimeoutMs }));
        done = true;
        return;
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw explain(spec.name, error);
        const code = await callback.next(state, options.timeoutMs, options.signal);
        const transport = opened.transport as { finishAuth(code: string): Promise<void> };
        await transport.finishAuth(code).catch((failure) => {
          throw explain(spec.name, failure);
        });
      } finally {
        await client.close().catch(() => {});
      }
    }
    throw new ReasonixError("mcp.login_failed", `MCP server "${spec.name}" kept asking for authorisation`);
  } finally {
    await callback.close();
    // A login that did not finish leaves the tokens it found, unless it stored new ones.
    if (!done && earlier.tokens !== undefined) {
      await store.update((auth) =>
        auth.tokens ? auth : { ...auth, tokens: earlier.tokens, ...expiry(earlier) }
      );
    }
  }
}

/** Whether tokens are stored for the server; undefined for a stdio server. */
export async function oauthLoggedIn(spec: McpServerSpec, dir: string): Promise<boolean | undefined> {
  if (spec.type === "stdio") return undefined;
  const store = await OAuthStore.open(dir, spec.name, spec.url);
  return (await store.read()).tokens !== undefined;
}

/** Revokes (where offered) and forgets the stored tokens; false when there were none. */
export async function logoutMcpServer(
  spec: McpServerSpec,
  dir: string,
): Promise<{ removed: boolean; revoked: boolean }> {
  const url = remoteUrl(spec, "log out of");
  const store = await OAuthStore.open(dir, spec.name, url);
  const auth = await store.read();
  const revoked = auth.tokens ? await revokeTokens(auth, spec.oauth).catch(() => false) : false;
  const removed = await store.remove();
  await Deno.remove(`${store.file}.lock`).catch(() => {});
  return { removed: removed && auth.tokens !== undefined, revoked };
}

/** The authorisation URL comes from the server's metadata: only a web page is shown or opened, never a
 * `file:` URL or another scheme a desktop would hand to some program. */
function checkedUrl(name: string, url: URL): URL {
  if (url.protocol === "https:" || url.protocol === "http:") return url;
  throw new ReasonixError(
    "mcp.login_url",
    `Cannot open the authorisation URL of MCP server "${name}": its scheme "${url.protocol}" is not http(s)`,
  );
}

function remoteUrl(spec: McpServerSpec, what: string): string {
  if (spec.type === "stdio") {
    throw new ReasonixError(
      "mcp.not_remote",
      `Cannot ${what} MCP server "${spec.name}": it runs over stdio, and only HTTP and SSE servers use OAuth`,
    );
  }
  return spec.url;
}

function expiry(auth: StoredAuth): { expiresAt?: number } {
  return auth.expiresAt !== undefined ? { expiresAt: auth.expiresAt } : {};
}

/** The port of the redirect a dynamic registration was made with, so it can be used again. */
function registeredPort(auth: StoredAuth): number | undefined {
  const uri = auth.registered ? auth.clientInformation?.redirect_uris?.[0] : undefined;
  if (uri === undefined || !URL.canParse(uri)) return undefined;
  const port = Number(new URL(uri).port);
  return port > 0 ? port : undefined;
}

/** A registration of our own made for another redirect is dropped, so the SDK registers again. */
function forgetOtherRedirect(auth: StoredAuth, redirectUrl: string): StoredAuth {
  if (!auth.registered || auth.clientInformation?.redirect_uris?.includes(redirectUrl)) return auth;
  const { clientInformation: _, registered: __, ...rest } = auth;
  return rest;
}

function explain(name: string, error: unknown): ReasonixError {
  if (error instanceof ReasonixError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ReasonixError("mcp.login_failed", `Cannot log in to MCP server "${name}": ${message}`, {
    cause: error,
  });
}
