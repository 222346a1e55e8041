/**
 * Provider setup from the web UI (`/api/setup`): only a loopback peer, authenticated, from the server's
 * own origin, may read or change it; the key lands where `reasonix setup` puts it and is never sent back
 * whole; new sessions use it at once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ofType, ORIGIN, served, SseReader } from "./_support.ts";
import { isLoopbackPeer } from "../../../src/frontends/serve/setup_gate.ts";

const KEY = "sk-setup-test-0123456789abcd";

/** The built-in DeepSeek default has no key (the home's `.env` is emptied); `sim` is the simulator. */
function setupToml(simUrl: string): string {
  return [
    `default_model = "deepseek-flash"`,
    `[network]`,
    `max_retries = 0`,
    `[[providers]]`,
    `name = "sim"`,
    `kind = "openai"`,
    `base_url = "${simUrl}"`,
    `models = ["sim-small", "sim-large"]`,
    `model = "sim-small"`,
    `api_key_env = "SIM_API_KEY"`,
    ``,
  ].join("\n");
}

async function setupServed(script: { content: string }[] = [], files?: Record<string, string>) {
  const s = await served({ configToml: setupToml, simKey: KEY, script, ...(files ? { files } : {}) });
  await Deno.writeTextFile(join(s.home, ".env"), "");
  return s;
}

const post = (body: unknown) => ({ method: "POST", json: body, headers: { origin: ORIGIN } });

Deno.test("serve setup: a loopback client sees the providers, saves a key, and a new session uses it", async () => {
  const s = await setupServed([{ content: "ok" }, { content: "hello from the new key" }]);
  try {
    const before = await (await s.call("/api/setup")).json();
    assert.equal(before.needed, true);
    assert.equal(before.defaultModel, "deepseek-flash");
    const sim = before.providers.find((p: { ref: string }) => p.ref === "sim");
    assert.deepEqual(sim.models, ["sim-small", "sim-large"]);
    assert.equal(sim.key, null);

    const saved = await s.call("/api/setup", post({ provider: "sim", key: KEY }));
    const text = await saved.text();
    assert.equal(saved.status, 200, text);
    assert.ok(!text.includes(KEY), "the key is never sent back");
    const answer = JSON.parse(text);
    assert.equal(answer.key, "••••abcd");
    assert.equal(answer.tested, true);
    assert.equal(answer.defaultModel, "sim");
    assert.equal(answer.config.status, "set");
    assert.equal(s.sim.requests[0]!.headers["authorization"], `Bearer ${KEY}`, "the test request used it");
    assert.equal(await Deno.readTextFile(join(s.home, ".env")), `SIM_API_KEY=${KEY}\n`);
    assert.equal((await Deno.stat(join(s.home, ".env"))).mode! & 0o777, 0o600);
    assert.match(await Deno.readTextFile(join(s.home, "config.toml")), /^default_model = "sim"$/m);

    const after = await (await s.call("/api/setup")).text();
    assert.ok(!after.includes(KEY));
    assert.equal(JSON.parse(after).needed, false);

    const created = await (await s.call("/api/sessions", post({}))).json();
    assert.equal(created.model, "sim-small");
    const stream = new SseReader(await s.call(`/api/sessions/${created.id}/events`));
    await stream.until(ofType("ready"));
    assert.equal((await s.call(`/api/sessions/${created.id}/input`, post({ text: "hi" }))).status, 202);
    await stream.until(ofType("turn_done"));
    await stream.close();
    assert.equal(s.sim.requests[1]!.headers["authorization"], `Bearer ${KEY}`, "the session used it");
    assert.ok(!JSON.stringify(stream.frames).includes(KEY), "no event carries the key");
  } finally {
    await s.close();
  }
});

Deno.test("serve setup: a rejected key is not stored and the refusal does not repeat it", async () => {
  const s = await setupServed([{ content: "never" }]);
  try {
    const wrong = "sk-wrong-key-0123456789wxyz";
    const refused = await s.call("/api/setup", post({ provider: "sim", key: wrong }));
    const text = await refused.text();
    assert.equal(refused.status, 422, text);
    assert.equal(JSON.parse(text).code, "setup.test_failed");
    assert.match(JSON.parse(text).message, /rejected the key \(401\)/);
    assert.ok(!text.includes(wrong));
    assert.equal(await Deno.readTextFile(join(s.home, ".env")), "");
    for (const bad of ["sk-has space-0123456789", "sk-ünïcode-0123456789", 'sk-"quoted"-0123456789']) {
      const refusedBad = await s.call("/api/setup", post({ provider: "sim", key: bad, test: false }));
      assert.equal((await refusedBad.json()).code, "setup.bad_key", bad);
    }
    const keyless = await (await s.call("/api/setup", post({ provider: "sim", test: false }))).json();
    assert.deepEqual([keyless.key, keyless.keyStored], [null, false], "a server on loopback may take no key");
    assert.equal(
      (await s.call("/api/setup", post({ provider: "deepseek-pro", test: false })).then((r) => r.json()))
        .code,
      "setup.no_key",
    );
    const model = await s.call("/api/setup", post({ provider: "sim", model: "nope", key: KEY }));
    assert.equal((await model.json()).code, "setup.unknown_model");
    const untested = await s.call(
      "/api/setup",
      post({ provider: "sim", model: "sim-large", key: KEY, test: false }),
    );
    const body = await untested.json();
    assert.equal(body.tested, false);
    assert.equal(body.defaultModel, "sim/sim-large");
  } finally {
    await s.close();
  }
});

Deno.test("serve setup: refused off loopback (spoofed forwarding headers too), without auth, cross-origin", async () => {
  const s = await setupServed();
  try {
    const expect = async (response: Response, status: number, code: string) => {
      const text = await response.text();
      assert.equal(response.status, status, text);
      assert.equal(JSON.parse(text).code, code);
    };
    await expect(await s.call("/api/setup", { remote: "10.0.0.5" }), 403, "setup.loopback_only");
    const spoofed = { remote: "10.0.0.5", headers: { "x-forwarded-for": "127.0.0.1", origin: ORIGIN } };
    await expect(
      await s.call("/api/setup", { ...spoofed, method: "POST", json: { provider: "sim", key: KEY } }),
      403,
      "setup.loopback_only",
    );
    const proxied = { headers: { "x-forwarded-for": "203.0.113.9" } };
    await expect(await s.call("/api/setup", proxied), 403, "setup.loopback_only");
    await expect(await s.call("/api/setup", { headers: { authorization: "" } }), 401, "auth.required");
    await expect(
      await s.call("/api/setup", { headers: { authorization: "Bearer nope" } }),
      401,
      "auth.required",
    );
    const foreign = {
      method: "POST",
      json: { provider: "sim", key: KEY },
      headers: { origin: "http://evil.example" },
    };
    await expect(await s.call("/api/setup", foreign), 403, "serve.cross_origin");
    await expect(await s.call("/api/setup", { headers: { host: "evil.example" } }), 403, "serve.bad_host");
    const form = await s.call("/api/setup", {
      method: "POST",
      body: `provider=sim&key=${KEY}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    await expect(form, 415, "request.not_json");
    assert.equal(await Deno.readTextFile(join(s.home, ".env")), "", "nothing was stored");
  } finally {
    await s.close();
  }
});

Deno.test("serve setup: a provider a cloned repository declares is not offered, so no key is sent to it", async () => {
  const project = [
    `[[providers]]`,
    `name = "repo"`,
    `kind = "openai"`,
    `base_url = "http://127.0.0.1:9/v1"`,
    `model = "repo-model"`,
    `api_key_env = "SIM_API_KEY"`,
    ``,
  ].join("\n");
  const s = await setupServed([], { "reasonix.toml": project });
  try {
    await Deno.writeTextFile(join(s.home, ".env"), `SIM_API_KEY=${KEY}\n`);
    const state = await (await s.call("/api/setup")).json();
    const refs = state.providers.map((p: { ref: string }) => p.ref);
    assert.ok(refs.includes("sim") && !refs.includes("repo"), refs.join(","));
    const refused = await s.call("/api/setup", post({ provider: "repo" }));
    assert.equal((await refused.json()).code, "setup.unknown_provider");
  } finally {
    await s.close();
  }
});

Deno.test("isLoopbackPeer() accepts 127/8, ::1 and mapped 127 only", () => {
  for (const peer of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1", "[::1]"]) {
    assert.ok(isLoopbackPeer(peer), peer);
  }
  for (
    const peer of [undefined, "10.0.0.1", "::ffff:10.0.0.1", "0.0.0.0", "128.0.0.1", "fe80::1", "localhost"]
  ) {
    assert.ok(!isLoopbackPeer(peer), String(peer));
  }
});
