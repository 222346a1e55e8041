/**
 * @module
 * The serve face as a Hono app over Web APIs only (tests drive it with `app.request()`; only
 * listen.ts opens a port). Order matters: the Host/Origin guard, then auth, then the routes.
 */
import { Hono, type MiddlewareHandler } from "hono";
import type { AdminContext } from "../../control/mod.ts";
import { type Auth, authRoutes, type ServeEnv } from "./auth.ts";
import { guard, type GuardOptions } from "./guard.ts";
import type { SessionHub } from "./hub.ts";
import { OPENAPI } from "./openapi.ts";
import { refuse, refuseError } from "./refuse.ts";
import { sessionRoutes } from "./routes_sessions.ts";
import { setupRoutes } from "./routes_setup.ts";
import { turnRoutes } from "./routes_turn.ts";
import { loginPage } from "./web/page.ts";
import { INDEX_HTML, STYLE_CSS } from "./web/assets.ts";
import { APP_JS } from "./web/app_js.ts";
import { SETUP_JS } from "./web/setup_js.ts";
import { MARKDOWN_JS } from "./web/markdown_js.ts";
import { vendorScript } from "./web/vendor.ts";

export interface AppOptions {
  hub: SessionHub;
  auth: Auth;
  guard: GuardOptions;
  admin: AdminContext;
  /** The environment provider keys are looked up in, for `/api/setup`. */
  env: Record<string, string>;
}

export function createApp(options: AppOptions): Hono<ServeEnv> {
  const { auth, hub } = options;
  const app = new Hono<ServeEnv>();
  app.use("*", securityHeaders);
  app.use("*", guard(options.guard));
  app.use("*", auth.middleware());
  app.get("/", (c) => {
    const landed = auth.tokenLanding(c);
    if (landed) return landed;
    return c.html(auth.authenticated(c) ? INDEX_HTML : loginPage(auth.mode));
  });
  app.get("/ui/app.js", (c) => c.body(APP_JS, 200, SCRIPT));
  app.get("/ui/setup.js", (c) => c.body(SETUP_JS, 200, SCRIPT));
  app.get("/ui/markdown.js", (c) => c.body(MARKDOWN_JS, 200, SCRIPT));
  app.get("/ui/vendor.js", async (c) => c.body(await vendorScript(), 200, SCRIPT));
  app.get("/ui/style.css", (c) => c.body(STYLE_CSS, 200, { "content-type": "text/css; charset=utf-8" }));
  app.get("/api/openapi.json", (c) => c.json(OPENAPI));
  authRoutes(app, auth);
  setupRoutes(app, { admin: options.admin, hub, env: options.env });
  sessionRoutes(app, hub, options.admin);
  turnRoutes(app, hub);
  app.notFound((c) => refuse(c, 404, "request.not_found", `No route ${c.req.method} ${c.req.path}`));
  app.onError((error, c) => refuseError(c, error));
  return app;
}

const SCRIPT = { "content-type": "text/javascript; charset=utf-8" };

const securityHeaders: MiddlewareHandler = async function securityHeaders(c, next) {
  await next();
  c.header("x-content-type-options", "nosniff");
  c.header("referrer-policy", "no-referrer");
  c.header("x-frame-options", "DENY");
  c.header(
    "content-security-policy",
    "default-src 'self'; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
  );
};
