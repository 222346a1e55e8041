/**
 * @module
 * Refreshing a session's tokens without racing another session. Under the store's cross-process lock
 * the stored tokens are read again: when another process has already replaced the refused (or expired)
 * token, its tokens are used as they are; otherwise the SDK's `refreshAuthorization` spends the refresh
 * token once and the answer, a rotated refresh token included, is stored before the lock is released.
 * A refused refresh token (`invalid_grant`) is forgotten, so the next start says to log in again.
 */
import {
  type OAuthClientProvider,
  refreshAuthorization,
  selectResourceURL,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { type OAuthStore, type StoredAuth, withTokens } from "./oauth_store.ts";

export interface RefreshOptions {
  provider: OAuthClientProvider;
  /** The access token the server refused; undefined when refreshing because it expired. */
  rejected: string | undefined;
  clientInformation(auth: StoredAuth): OAuthClientInformationMixed | undefined;
  expired(auth: StoredAuth): boolean;
}

export async function refreshStoredTokens(
  store: OAuthStore,
  options: RefreshOptions,
): Promise<OAuthTokens | undefined> {
  return await store.locked(async (txn) => {
    const auth = await txn.read();
    const tokens = auth.tokens;
    if (tokens === undefined) return undefined;
    const stale = options.rejected !== undefined
      ? tokens.access_token === options.rejected
      : options.expired(auth);
    if (!stale) return tokens;
    const discovery = auth.discovery;
    const clientInformation = options.clientInformation(auth);
    if (!tokens.refresh_token || discovery === undefined || clientInformation === undefined) return undefined;
    const selected = await selectResourceURL(store.serverUrl, options.provider, discovery.resourceMetadata);
    // As the SDK's own flow does: the metadata's resource indicator verbatim, not the parsed URL's href.
    const resource = selected && discovery.resourceMetadata ? discovery.resourceMetadata.resource : selected;
    try {
      const fresh = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation,
        refreshToken: tokens.refresh_token,
        ...(resource !== undefined ? { resource } : {}),
      });
      const saved: OAuthTokens = { ...fresh, issuer: tokens.issuer ?? discovery.authorizationServerUrl };
      await txn.write(withTokens(auth, saved));
      return saved;
    } catch (error) {
      if (!(error instanceof InvalidGrantError)) throw error;
      const { tokens: _, expiresAt: __, ...rest } = auth;
      await txn.write(rest);
      return undefined;
    }
  });
}
