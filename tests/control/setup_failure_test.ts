import assert from "node:assert/strict";
import type { ProviderConfig } from "../../src/config/types.ts";
import { type ModelChoice, testKey } from "../../src/control/setup.ts";
import { proxyFor } from "../../src/control/setup_failure.ts";
import { DeepSeekSim, type SimFault } from "../support/deepseek_sim.ts";

const KEY = "sk-failure-secret";

function choiceFor(baseUrl: string): ModelChoice {
  const provider: ProviderConfig = {
    name: "deepseek-flash",
    kind: "openai",
    baseUrl,
    models: ["deepseek-flash"],
    defaultModel: "deepseek-flash",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    contextWindow: 128_000,
    cacheTtlMinutes: 5,
    maxOutputTokens: 0,
    reasoningProtocol: "none",
    source: "global",
  };
  return { ref: "deepseek-flash", model: "deepseek-flash", provider };
}

async function failureFor(fault: SimFault, timeoutMs?: number): Promise<string> {
  const sim = await DeepSeekSim.start({ apiKey: KEY, script: [{ content: "ok", fault }] });
  try {
    const result = await testKey(choiceFor(sim.url), KEY, { env: {}, timeoutMs });
    assert.equal(result.ok, false);
    const message = result.ok ? "" : result.message;
    assert.ok(!message.includes(KEY), message);
    return message.replace(new URL(sim.url).host, "HOST");
  } finally {
    await sim.close();
  }
}

/** A port nothing listens on: a simulator's, after it closed. */
async function deadUrl(): Promise<string> {
  const sim = await DeepSeekSim.start();
  await sim.close();
  return sim.url;
}

Deno.test("testKey() says a refused connection is one, naming host and port", async () => {
  const url = await deadUrl();
  const result = await testKey(choiceFor(url), KEY, { env: {} });
  assert.deepEqual(result, {
    ok: false,
    message: `Connection to ${new URL(url).host} refused: nothing listens there, or a firewall`,
  });
});

Deno.test("testKey() says 402, 5xx, 404 and a model the server does not know in plain words", async () => {
  assert.equal(
    await failureFor({ kind: "status", status: 402, message: "Insufficient Balance" }),
    "HOST accepted the key, but the account has no balance (402): top it up",
  );
  assert.equal(
    await failureFor({ kind: "status", status: 503, message: "busy" }),
    "HOST had a server error (503): retry later",
  );
  assert.equal(
    await failureFor({ kind: "status", status: 404, message: "no such model" }),
    "HOST has no such API or model (404): check the base URL and the model name",
  );
  assert.equal(
    await failureFor({ kind: "status", status: 400, message: "Model Not Exist" }),
    "HOST rejected the test request (400): Model Not Exist",
  );
});

Deno.test("testKey() gives up after its deadline and says the host did not answer in time", async () => {
  const message = await failureFor({ kind: "slow_first_byte", delayMs: 2_000 }, 200);
  assert.equal(message, "HOST did not answer in time: a filtered network, or a proxy is needed");
});

Deno.test("testKey() escapes terminal controls in a server's own words", async () => {
  const message = await failureFor({ kind: "status", status: 418, message: "tea\x1b]0;pwned\x07" });
  assert.match(message, /^HOST rejected the test request \(418\): tea␛\]0;pwned␇$/);
});

Deno.test("proxyFor() names the proxy fetch would use and its variable, honouring the scheme and NO_PROXY", () => {
  const env = { HTTPS_PROXY: "http://user:secret@proxy.corp:3128", no_proxy: "internal.corp,.local" };
  assert.deepEqual(proxyFor("https://api.deepseek.com", env), {
    host: "proxy.corp:3128",
    variable: "HTTPS_PROXY",
  });
  assert.equal(proxyFor("http://api.deepseek.com", env), undefined);
  assert.equal(proxyFor("https://llm.internal.corp/v1", env), undefined);
  assert.equal(proxyFor("https://box.local/v1", env), undefined);
  assert.deepEqual(proxyFor("http://x.example", { http_proxy: "proxy:8080" }), {
    host: "proxy:8080",
    variable: "http_proxy",
  });
  assert.deepEqual(proxyFor("https://x.example", { ALL_PROXY: "socks5://s:1080" }), {
    host: "s:1080",
    variable: "ALL_PROXY",
  });
});

Deno.test("testKey() in a session that may not connect to the host says so, not that the network is down", async () => {
  const sim = await DeepSeekSim.start({ script: [{ content: "ok" }] });
  try {
    const fixture = new URL("../e2e/fixtures/setup_key_probe.ts", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        "--allow-env",
        "--allow-net=example.com",
        fixture,
        sim.url,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.deepEqual(JSON.parse(stdout), {
      ok: false,
      message: `This session may not connect to ${
        new URL(sim.url).host
      }: run \`reasonix setup\` in a shell instead`,
    });
    assert.equal(sim.requests.length, 0);
  } finally {
    await sim.close();
  }
});

Deno.test("testKey() names a port fetch refuses to call", async () => {
  const result = await testKey(choiceFor("http://127.0.0.1:6000"), KEY, { env: {} });
  assert.deepEqual(result, {
    ok: false,
    message: "127.0.0.1:6000: port 6000 is one that fetch refuses to call; use another port",
  });
});
