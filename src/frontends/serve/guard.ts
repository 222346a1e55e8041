/**
 * @module
 * Requests from the wrong place are refused before auth: a `Host` that is not this server's (DNS
 * rebinding: a page on evil.example whose name now points at 127.0.0.1) and a state-changing request
 * from another origin (CSRF). `X-Forwarded-*` count only when the server sits behind a proxy.
 */
import type { Context, MiddlewareHandler } from "hono";
import { refuse } from "./refuse.ts";

export interface GuardOptions {
  /** The host the server listens on (`127.0.0.1`, `0.0.0.0`, `::1`, a name). */
  listenHost: string;
  /** Extra names the server answers to (its public name behind a proxy). */
  allowedHosts?: readonly string[];
  behindProxy: boolean;
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function guard(options: GuardOptions): MiddlewareHandler {
  return async function guard(c, next) {
    const host = requestHost(c, options.behindProxy);
    if (!host || !hostAllowed(hostName(host), options)) {
      return refuse(c, 403, "serve.bad_host", `Refused: this server does not answer to host "${host ?? ""}"`);
    }
    if (!SAFE_METHODS.has(c.req.method) && !sameOrigin(c, host, options.behindProxy)) {
      return refuse(c, 403, "serve.cross_origin", "Refused: a state-changing request from another origin");
    }
    await next();
  };
}

/** `Host` (the URL's host where a client sent none), or behind a proxy the first `X-Forwarded-Host`. */
export function requestHost(c: Context, behindProxy: boolean): string | undefined {
  const forwarded = behindProxy ? c.req.header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  return forwarded || c.req.header("host") || new URL(c.req.url).host || undefined;
}

function requestProto(c: Context, behindProxy: boolean): string {
  const forwarded = behindProxy ? c.req.header("x-forwarded-proto")?.split(",")[0]?.trim() : undefined;
  return forwarded || new URL(c.req.url).protocol.replace(/:$/, "");
}

/** `example.com:8787` → `example.com`; `[::1]:8787` and `::1` → `::1`. */
export function hostName(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  if ((host.match(/:/g) ?? []).length > 1) return host.toLowerCase();
  return host.replace(/:\d+$/, "").toLowerCase();
}

/**
 * Loopback names, the listen address, and IP literals when listening on every interface (DNS
 * rebinding needs a name; an address typed by the person cannot be rebound).
 */
function hostAllowed(name: string, options: GuardOptions): boolean {
  if (LOOPBACK_NAMES.has(name)) return true;
  const listen = hostName(options.listenHost);
  if (name === listen) return true;
  if (options.allowedHosts?.some((allowed) => allowed.toLowerCase() === name)) return true;
  const wildcard = listen === "0.0.0.0" || listen === "::";
  return wildcard && isIpLiteral(name);
}

function isIpLiteral(name: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || (name.includes(":") && /^[0-9a-f:.]+$/.test(name));
}

/**
 * `Origin` must be this server's own; without one, `Sec-Fetch-Site` must not say cross-site. A client
 * that is not a browser sends neither and is judged by auth alone.
 */
function sameOrigin(c: Context, host: string, behindProxy: boolean): boolean {
  const origin = c.req.header("origin");
  if (origin !== undefined) return origin === `${requestProto(c, behindProxy)}://${host}`;
  const site = c.req.header("sec-fetch-site");
  return site === undefined || site === "same-origin" || site === "none";
}

export function isLoopbackHost(host: string): boolean {
  const name = hostName(host);
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}
