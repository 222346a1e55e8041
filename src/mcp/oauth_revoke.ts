/**
 * @module
 * Token revocation (RFC 7009) at logout, when the authorisation server's metadata names a
 * `revocation_endpoint` (the SDK's client has no revocation call). The refresh token goes first: revoking
 * it usually ends the access tokens issued with it. The client authenticates as it does at the token
 * endpoint: a public client sends its `client_id`, a confidential one HTTP Basic (or the body when the
 * server supports only that).
 */
import type { McpOAuthDecl } from "../config/types.ts";
import type { StoredAuth } from "./oauth_store.ts";

/** True when the server accepted at least one revocation. */
export async function revokeTokens(auth: StoredAuth, oauth: McpOAuthDecl | undefined): Promise<boolean> {
  const metadata = auth.discovery?.authorizationServerMetadata;
  const endpoint = metadata?.revocation_endpoint;
  const clientId = oauth?.clientId ?? auth.clientInformation?.client_id;
  if (endpoint === undefined || clientId === undefined || auth.tokens === undefined) return false;
  const secret = oauth?.clientId !== undefined ? oauth.clientSecret : auth.clientInformation?.client_secret;
  const methods = metadata?.revocation_endpoint_auth_methods_supported ?? [];
  const inBody = secret !== undefined && methods.includes("client_secret_post") &&
    !methods.includes("client_secret_basic");
  let accepted = false;
  const tokens: [string | undefined, string][] = [
    [auth.tokens.refresh_token, "refresh_token"],
    [auth.tokens.access_token, "access_token"],
  ];
  for (const [token, hint] of tokens) {
    if (token === undefined) continue;
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
    if (secret === undefined || inBody) body.set("client_id", clientId);
    if (secret !== undefined && inBody) body.set("client_secret", secret);
    if (secret !== undefined && !inBody) {
      headers.set(
        "authorization",
        `Basic ${btoa(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`)}`,
      );
    }
    const response = await fetch(endpoint, { method: "POST", headers, body, redirect: "error" });
    await response.body?.cancel();
    accepted ||= response.ok;
  }
  return accepted;
}
