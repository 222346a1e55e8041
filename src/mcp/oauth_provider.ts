/**
 * @module
 * The SDK's OAuthClientProvider for one remote server, over its stored state (oauth_store.ts). The SDK
 * runs the protocol: metadata discovery, dynamic registration, PKCE, the authorisation request, the code
 * exchange and step-up on `insufficient_scope`.
 *
 * Two modes. A login (`reasonix mcp login`) has a callback listener and a browser: the SDK's flow runs
 * in full. A session never starts a login: when the server refuses its token, it refreshes the token
 * itself, under the store's cross-process lock (oauth_refresh.ts), and retries once; when that cannot
 * help, the SDK's flow is stopped at its first step with an error naming `reasonix mcp login <name>`.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpOAuthDecl } from "../config/types.ts";
import { ReasonixError } from "../lib/errors.ts";
import { refreshStoredTokens } from "./oauth_refresh.ts";
import { type OAuthStore, type StoredAuth, withTokens } from "./oauth_store.ts";

export interface OAuthLoginMode {
  redirectUrl: string;
  state: string;
  /** Shows the authorisation URL to the person logging in. */
  open(url: URL): Promise<void> | void;
}

export interface McpOAuthProviderOptions {
  name: string;
  store: OAuthStore;
  oauth?: McpOAuthDecl;
  /** Present only for an interactive login. */
  login?: OAuthLoginMode;
}

/** Where a redirect would go when no login is under way (the SDK needs one to pick its flow). */
const SESSION_REDIRECT = "http://localhost/callback";

export function needsLogin(name: string, why: string): ReasonixError {
  return new ReasonixError(
    "mcp.needs_auth",
    `MCP server "${name}" needs authorisation (${why}): run \`reasonix mcp login ${name}\``,
  );
}

export class McpOAuthProvider implements OAuthClientProvider {
  readonly #options: McpOAuthProviderOptions;

  constructor(options: McpOAuthProviderOptions) {
    this.#options = options;
  }

  get redirectUrl(): string {
    return this.#options.login?.redirectUrl ?? SESSION_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.#options.oauth?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scopes = this.#options.oauth?.scopes ?? [];
    return {
      client_name: "Reasonix",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...(scopes.length > 0 ? { scope: scopes.join(" ") } : {}),
    };
  }

  state(): string {
    return this.#options.login?.state ?? crypto.randomUUID();
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return this.#preRegistered() ?? (await this.#options.store.read()).clientInformation;
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    // Pre-registered credentials live in the config; the SDK offers them back only to bind them.
    if (this.#preRegistered() !== undefined) return;
    this.#requireLogin("it has no client registration");
    await this.#options.store.update((auth) => ({
      ...auth,
      clientInformation: information,
      registered: true,
    }));
  }

  /** The stored tokens; in a session, an expired access token is refreshed first. */
  async tokens(): Promise<OAuthTokens | undefined> {
    const auth = await this.#options.store.read();
    if (this.#options.login !== undefined || !expired(auth)) return auth.tokens;
    return await this.refresh(undefined) ?? auth.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.#options.store.update((auth) => withTokens(auth, tokens));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    const login = this.#requireLogin("the server asks for a new login");
    await login.open(url);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    this.#requireLogin("the server asks for a new login");
    await this.#options.store.update((auth) => ({ ...auth, codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.#options.store.read()).codeVerifier;
    if (verifier === undefined) throw new ReasonixError("mcp.login_state", "No login is under way");
    return verifier;
  }

  async invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void> {
    await this.#options.store.update((auth) => {
      const next: StoredAuth = { ...auth };
      if (scope === "all" || scope === "client") {
        delete next.clientInformation;
        delete next.registered;
      }
      if (scope === "all" || scope === "tokens") {
        delete next.tokens;
        delete next.expiresAt;
      }
      if (scope === "all" || scope === "verifier") delete next.codeVerifier;
      if (scope === "all" || scope === "discovery") delete next.discovery;
      return next;
    });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#options.store.update((auth) => ({ ...auth, discovery: state }));
  }

  /**
   * The SDK asks this first whenever the server refused: a session stops there (its own refresh already
   * ran in `fetch`), a login discovers afresh.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.#options.login !== undefined) return undefined;
    const auth = await this.#options.store.read();
    throw needsLogin(
      this.#options.name,
      auth.tokens ? "the server refused its token" : "you are not logged in",
    );
  }

  /**
   * New tokens from the refresh token, under the store's lock; `rejected` is the access token the server
   * refused (another process may have replaced it already). Undefined when there is nothing to refresh
   * with or the refresh token was refused.
   */
  async refresh(rejected: string | undefined): Promise<OAuthTokens | undefined> {
    return await refreshStoredTokens(this.#options.store, {
      provider: this,
      rejected,
      clientInformation: (auth) => this.#preRegistered() ?? auth.clientInformation,
      expired,
    });
  }

  /**
   * The fetch of the server's transport: a 401 to a request that carried our token is answered by
   * refreshing that token and sending the request once more, so the SDK's own flow (which would start a
   * login) runs only when refreshing cannot help.
   */
  readonly fetch: FetchLike = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    if (response.status !== 401 || this.#options.login !== undefined) return response;
    const headers = new Headers(init?.headers);
    const sent = /^Bearer (.+)$/i.exec(headers.get("authorization") ?? "")?.[1];
    if (sent === undefined) return response;
    const fresh = await this.refresh(sent).catch(() => undefined);
    if (fresh === undefined || fresh.access_token === sent) return response;
    await response.body?.cancel();
    headers.set("authorization", `Bearer ${fresh.access_token}`);
    return await fetch(url, { ...init, headers });
  };

  #preRegistered(): OAuthClientInformationMixed | undefined {
    const { clientId, clientSecret } = this.#options.oauth ?? {};
    if (clientId === undefined) return undefined;
    return { client_id: clientId, ...(clientSecret !== undefined ? { client_secret: clientSecret } : {}) };
  }

  #requireLogin(why: string): OAuthLoginMode {
    if (this.#options.login === undefined) throw needsLogin(this.#options.name, why);
    return this.#options.login;
  }
}

function expired(auth: StoredAuth, now = Date.now()): boolean {
  return auth.tokens !== undefined && auth.expiresAt !== undefined &&
    auth.expiresAt <= now;
}
