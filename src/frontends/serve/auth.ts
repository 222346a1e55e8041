/**
 * @module
 * Who may use the server. `token`: the secret printed at start as a URL; opening it moves the token
 * into an HttpOnly, SameSite=Strict cookie and drops it from the address bar; scripts send it as
 * `Authorization: Bearer`. `password`: `POST /api/login` checks a bcrypt hash and sets the same
 * cookie. `none`: loopback only (serve refuses to start otherwise). Failed attempts are limited per
 * client; secrets are compared in constant time.
 */
import type { Context, Hono, MiddlewareHandler } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { ServeAuthMode } from "../../control/mod.ts";
import { LoginLimiter } from "./rate_limit.ts";
import { digest, sameSecret, verifyPassword } from "./password.ts";
import { readLimited } from "./body.ts";
import { refuse } from "./refuse.ts";

export const COOKIE = "reasonix_session";
const COOKIE_MAX_AGE = 7 * 24 * 3600;
/** Logged-in browsers remembered at once; the oldest is forgotten first. */
const MAX_SESSIONS = 1000;
const MAX_LOGIN_BYTES = 4096;

export interface AuthOptions {
  mode: ServeAuthMode;
  token?: string;
  passwordHash?: string;
  behindProxy: boolean;
  limiter?: LoginLimiter;
}

/** What the server binds per request: the peer address the listener saw. */
export interface ServeBindings {
  remote?: string;
}

export type ServeEnv = { Bindings: ServeBindings };

export class Auth {
  readonly mode: ServeAuthMode;
  #options: AuthOptions;
  #limiter: LoginLimiter;
  /** SHA-256 of each cookie value handed out (random, never the token itself), with its expiry (ms). */
  #sessions = new Map<string, number>();

  constructor(options: AuthOptions) {
    this.mode = options.mode;
    this.#options = options;
    this.#limiter = options.limiter ?? new LoginLimiter();
  }

  /** The peer, or behind a proxy the first `X-Forwarded-For` entry. */
  client(c: Context<ServeEnv>): string {
    const forwarded = this.#options.behindProxy
      ? c.req.header("x-forwarded-for")?.split(",")[0]?.trim()
      : undefined;
    return forwarded || c.env?.remote || "unknown";
  }

  authenticated(c: Context<ServeEnv>): boolean {
    if (this.mode === "none") return true;
    const cookie = getCookie(c, COOKIE);
    if (cookie !== undefined && (this.#sessions.get(digest(cookie)) ?? 0) > Date.now()) return true;
    const bearer = /^Bearer\s+(\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    return bearer !== undefined && this.mode === "token" && sameSecret(bearer, this.#options.token ?? "");
  }

  /** Refuses API requests without credentials; pages and the login route pass. */
  middleware(): MiddlewareHandler<ServeEnv> {
    return async (c, next) => {
      const path = c.req.path;
      const open = !path.startsWith("/api/") || path === "/api/login" || path === "/api/auth";
      if (open || this.authenticated(c)) return await next();
      // A wrong bearer token counts as a failed login: guessing through the API is as slow as at the door.
      const denied = this.#limited(c);
      if (denied) return denied;
      if (c.req.header("authorization") !== undefined) this.#limiter.fail(this.client(c));
      return refuse(
        c,
        401,
        "auth.required",
        "Authentication required: open the URL serve printed, or log in",
      );
    };
  }

  /** `/?token=…` (token mode): a right token becomes the cookie and the address loses it. */
  tokenLanding(c: Context<ServeEnv>): Response | null {
    const token = c.req.query("token");
    if (token === undefined || this.mode !== "token") return null;
    const denied = this.#limited(c);
    if (denied) return denied;
    if (!sameSecret(token, this.#options.token ?? "")) {
      this.#limiter.fail(this.client(c));
      return refuse(c, 401, "auth.bad_token", "Refused: wrong token");
    }
    this.#grant(c);
    return c.redirect("/", 303);
  }

  async login(c: Context<ServeEnv>): Promise<Response> {
    if (this.mode === "none") return c.json({ ok: true });
    const denied = this.#limited(c);
    if (denied) return denied;
    const form = !(c.req.header("content-type") ?? "").includes("application/json");
    const text = await readLimited(c.req.raw, MAX_LOGIN_BYTES);
    if (text === null) return refuse(c, 413, "request.too_large", "Refused: the body is too large");
    const body = credentials(text, form);
    const ok = this.mode === "token"
      ? typeof body.token === "string" && sameSecret(body.token, this.#options.token ?? "")
      : typeof body.password === "string" &&
        await verifyPassword(body.password, this.#options.passwordHash ?? "");
    if (!ok) {
      this.#limiter.fail(this.client(c));
      return refuse(
        c,
        401,
        "auth.bad_credentials",
        "Refused: wrong " + (this.mode === "token" ? "token" : "password"),
      );
    }
    this.#grant(c);
    return form ? c.redirect("/", 303) : c.json({ ok: true });
  }

  logout(c: Context<ServeEnv>): Response {
    const cookie = getCookie(c, COOKIE);
    if (cookie !== undefined) this.#sessions.delete(digest(cookie));
    setCookie(c, COOKIE, "", { path: "/", maxAge: 0, httpOnly: true, sameSite: "Strict" });
    return c.json({ ok: true });
  }

  #limited(c: Context<ServeEnv>): Response | null {
    const wait = this.#limiter.retryAfter(this.client(c));
    if (wait === 0) return null;
    c.header("retry-after", String(wait));
    return refuse(c, 429, "auth.rate_limited", `Too many failed attempts: try again in ${wait} s`);
  }

  #grant(c: Context<ServeEnv>): void {
    this.#limiter.succeed(this.client(c));
    const value = randomSecret();
    this.#sessions.set(digest(value), Date.now() + COOKIE_MAX_AGE * 1000);
    if (this.#sessions.size > MAX_SESSIONS) this.#sessions.delete(this.#sessions.keys().next().value!);
    const secure = new URL(c.req.url).protocol === "https:" ||
      (this.#options.behindProxy && c.req.header("x-forwarded-proto") === "https");
    setCookie(c, COOKIE, value, {
      path: "/",
      httpOnly: true,
      sameSite: "Strict",
      maxAge: COOKIE_MAX_AGE,
      ...(secure ? { secure: true } : {}),
    });
  }
}

export function authRoutes(app: Hono<ServeEnv>, auth: Auth): void {
  app.post("/api/login", (c) => auth.login(c));
  app.post("/api/logout", (c) => auth.logout(c));
  app.get("/api/auth", (c) => c.json({ mode: auth.mode, authenticated: auth.authenticated(c) }));
}

/** `{token}` or `{password}` from JSON or a urlencoded form; anything else is no credential. */
function credentials(text: string, form: boolean): { token?: unknown; password?: unknown } {
  if (form) {
    const params = new URLSearchParams(text);
    return { token: params.get("token") ?? undefined, password: params.get("password") ?? undefined };
  }
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

/** 32 random bytes, base64url: a generated token and every cookie value. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
