/**
 * Who may use the server: each auth mode, wrong and missing credentials, the login rate limit, the
 * Host and Origin checks, and the refusal to serve a non-loopback address without auth.
 */
import assert from "node:assert/strict";
import { ORIGIN, served, TOKEN } from "./_support.ts";
import { LoginLimiter } from "../../../src/frontends/serve/rate_limit.ts";
import { hashPassword, sameSecret } from "../../../src/frontends/serve/password.ts";
import { checkExposure, parseAddr } from "../../../src/frontends/serve/address.ts";
import { serveSettings } from "../../../src/frontends/serve/mod.ts";
import { ReasonixError } from "../../../src/lib/errors.ts";

const NO_AUTH = { authorization: "" };

Deno.test("serve auth token: missing and wrong tokens are refused, the right one passes", async () => {
  const s = await served();
  try {
    const missing = await s.call("/api/sessions", { headers: NO_AUTH });
    assert.equal(missing.status, 401);
    assert.equal((await missing.json()).code, "auth.required");
    assert.equal((await s.call("/api/sessions", { headers: { authorization: "Bearer nope" } })).status, 401);
    assert.equal((await s.call("/api/sessions")).status, 200);
    const huge = await s.call("/api/login", {
      method: "POST",
      json: { token: "x".repeat(10_000) },
      headers: NO_AUTH,
    });
    assert.equal(huge.status, 413, "an unauthenticated client cannot make the server buffer a large body");
    const state = await (await s.call("/api/auth", { headers: NO_AUTH })).json();
    assert.deepEqual(state, { mode: "token", authenticated: false });
  } finally {
    await s.close();
  }
});

Deno.test("serve auth token: the URL's token becomes an HttpOnly SameSite=Strict cookie", async () => {
  const s = await served();
  try {
    assert.equal((await s.call("/?token=wrong", { headers: NO_AUTH })).status, 401);
    const landed = await s.call(`/?token=${TOKEN}`, { headers: NO_AUTH });
    assert.equal(landed.status, 303);
    assert.equal(landed.headers.get("location"), "/");
    const cookie = landed.headers.get("set-cookie")!;
    assert.match(cookie, /^reasonix_session=[\w-]{40,};/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
    assert.ok(!cookie.includes(TOKEN), "the cookie is not the token");
    const session = cookie.split(";")[0]!;
    assert.equal((await s.call("/api/sessions", { headers: { ...NO_AUTH, cookie: session } })).status, 200);
    const forged = "reasonix_session=" + "x".repeat(43);
    assert.equal((await s.call("/api/sessions", { headers: { ...NO_AUTH, cookie: forged } })).status, 401);
    await s.call("/api/logout", { method: "POST", headers: { ...NO_AUTH, cookie: session } });
    assert.equal((await s.call("/api/sessions", { headers: { ...NO_AUTH, cookie: session } })).status, 401);
  } finally {
    await s.close();
  }
});

Deno.test("serve auth: failed logins are rate-limited per client, even a right one after", async () => {
  let now = 1_000_000;
  const s = await served({ limiter: new LoginLimiter({ limit: 3, windowMs: 60_000, now: () => now }) });
  try {
    const login = (token: string, remote: string) =>
      s.call("/api/login", { method: "POST", json: { token }, headers: NO_AUTH, remote });
    for (let i = 0; i < 3; i++) assert.equal((await login("wrong", "10.0.0.7")).status, 401);
    const limited = await login(TOKEN, "10.0.0.7");
    assert.equal(limited.status, 429);
    assert.equal((await limited.json()).code, "auth.rate_limited");
    assert.equal(limited.headers.get("retry-after"), "60");
    assert.equal((await login(TOKEN, "10.0.0.8")).status, 200, "another client is not limited");
    const bearer = await s.call("/api/sessions", {
      headers: { authorization: "Bearer x" },
      remote: "10.0.0.7",
    });
    assert.equal(bearer.status, 429, "guessing through the API is limited too");
    now += 61_000;
    assert.equal((await login(TOKEN, "10.0.0.7")).status, 200);
  } finally {
    await s.close();
  }
});

Deno.test("serve auth: X-Forwarded-For names the client only behind a proxy", async () => {
  for (const behindProxy of [false, true]) {
    const s = await served({ behindProxy, limiter: new LoginLimiter({ limit: 1 }) });
    try {
      const login = (forwarded: string) =>
        s.call("/api/login", {
          method: "POST",
          json: { token: "wrong" },
          headers: { ...NO_AUTH, "x-forwarded-for": forwarded },
          remote: "127.0.0.1",
        });
      assert.equal((await login("1.1.1.1")).status, 401);
      // Not behind a proxy, a client cannot escape the limit by changing the header.
      assert.equal((await login("2.2.2.2")).status, behindProxy ? 401 : 429);
    } finally {
      await s.close();
    }
  }
});

Deno.test("serve auth password: a bad password is refused, the right one sets the cookie", async () => {
  const passwordHash = hashPassword("correct horse");
  const s = await served({ auth: { mode: "password", passwordHash } });
  try {
    assert.equal((await s.call("/api/sessions", { headers: NO_AUTH })).status, 401);
    const bearer = await s.call("/api/sessions", { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(bearer.status, 401, "no bearer token in password mode");
    const bad = await s.call("/api/login", { method: "POST", json: { password: "wrong" }, headers: NO_AUTH });
    assert.equal(bad.status, 401);
    assert.equal((await bad.json()).code, "auth.bad_credentials");
    const good = await s.call("/api/login", {
      method: "POST",
      json: { password: "correct horse" },
      headers: NO_AUTH,
    });
    assert.equal(good.status, 200);
    const cookie = good.headers.get("set-cookie")!.split(";")[0]!;
    assert.equal((await s.call("/api/sessions", { headers: { ...NO_AUTH, cookie } })).status, 200);
    const form = await s.call("/api/login", {
      method: "POST",
      body: new URLSearchParams({ password: "correct horse" }),
      headers: { ...NO_AUTH, origin: ORIGIN },
    });
    assert.equal(form.status, 303);
  } finally {
    await s.close();
  }
});

Deno.test("serve auth none: loopback only; any other address is refused naming --auth", async () => {
  const s = await served({ auth: { mode: "none" } });
  try {
    assert.equal((await s.call("/api/sessions", { headers: NO_AUTH })).status, 200);
  } finally {
    await s.close();
  }
  for (const addr of ["127.0.0.1:0", "[::1]:8787", "localhost:8787"]) checkExposure(parseAddr(addr), "none");
  for (const addr of ["0.0.0.0:8787", ":8787", "192.168.1.5:8787", "[::]:8787"]) {
    assert.throws(() => checkExposure(parseAddr(addr), "none"), (error: unknown) => {
      assert.ok(error instanceof ReasonixError);
      assert.equal(error.code, "usage.unsafe_bind");
      assert.match(error.message, /--auth none/);
      assert.match(error.hint ?? "", /--auth token/);
      return true;
    });
    checkExposure(parseAddr(addr), "token");
  }
});

Deno.test("serve auth: settings come from flags over [serve]; a token is generated when none is set", () => {
  const config = { addr: "127.0.0.1:8787", authMode: "token" as const, behindProxy: false };
  const generated = serveSettings(config, {});
  assert.equal(generated.auth.mode, "token");
  assert.ok(generated.generatedToken && generated.generatedToken.length >= 40);
  assert.equal(generated.auth.token, generated.generatedToken);
  assert.notEqual(serveSettings(config, {}).generatedToken, generated.generatedToken);
  const given = serveSettings({ ...config, token: "a-configured-token-1234" }, {});
  assert.equal(given.generatedToken, undefined);
  assert.throws(() => serveSettings(config, { auth: "password" }), /bcrypt hash/);
  assert.throws(() => serveSettings(config, { auth: "open" }), /none, token or password/);
  assert.throws(() => serveSettings(config, { token: "short" }), /16 characters/);
  assert.throws(() => serveSettings(config, { addr: "nowhere" }), /HOST:PORT/);
});

Deno.test("serve guard: a foreign Host is refused (DNS rebinding)", async () => {
  const s = await served({ auth: { mode: "none" } });
  try {
    const rebound = await s.call("/api/sessions", { headers: { host: "evil.example:8787" } });
    assert.equal(rebound.status, 403);
    assert.equal((await rebound.json()).code, "serve.bad_host");
    for (const host of ["127.0.0.1:8787", "localhost:8787", "[::1]:8787"]) {
      assert.equal((await s.call("/api/sessions", { headers: { host } })).status, 200, host);
    }
  } finally {
    await s.close();
  }
});

Deno.test("serve guard: a state-changing request from another origin is refused (CSRF)", async () => {
  const s = await served({ auth: { mode: "none" } });
  try {
    const post = (headers: Record<string, string>) =>
      s.call("/api/sessions", { method: "POST", json: {}, headers });
    const foreign = await post({ origin: "http://evil.example" });
    assert.equal(foreign.status, 403);
    assert.equal((await foreign.json()).code, "serve.cross_origin");
    assert.equal((await post({ origin: "null" })).status, 403);
    assert.equal((await post({ "sec-fetch-site": "cross-site" })).status, 403);
    assert.equal((await post({ origin: ORIGIN })).status, 201);
    assert.equal((await post({})).status, 201, "a client that is not a browser sends no Origin");
    const read = await s.call("/api/sessions", { headers: { origin: "http://evil.example" } });
    assert.equal(read.status, 200, "reads are not state-changing; no CORS header lets a page see them");
    assert.equal(read.headers.get("access-control-allow-origin"), null);
  } finally {
    await s.close();
  }
});

Deno.test("sameSecret() compares whole secrets of any length", () => {
  assert.equal(sameSecret("abc", "abc"), true);
  assert.equal(sameSecret("abc", "abd"), false);
  assert.equal(sameSecret("abc", "abcd"), false);
  assert.equal(sameSecret("", ""), true);
});
