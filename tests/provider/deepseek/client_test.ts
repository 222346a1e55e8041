import assert from "node:assert/strict";
import { OpenAIProvider, type OpenAIProviderOptions } from "../../../src/provider/deepseek/client.ts";
import { buildRequestBody } from "../../../src/provider/deepseek/body.ts";
import { ProviderError } from "../../../src/provider/errors.ts";
import type { ChatMessage, ChatRequest, StreamEvent } from "../../../src/provider/provider.ts";
import { DeepSeekSim, type ScriptedReply } from "../../support/deepseek_sim.ts";
import { runProviderContract } from "../../contract/provider_contract.ts";

runProviderContract({
  name: "OpenAIProvider",
  newProvider: ({ baseUrl, apiKey, fetch }) =>
    new OpenAIProvider({
      name: "sim",
      baseUrl,
      apiKey,
      apiKeyEnv: "DEEPSEEK_API_KEY",
      reasoningProtocol: "deepseek",
      maxRetries: 2,
      retryBaseMs: 1,
      fetch,
    }),
});

const KEY = "sk-test-secret-123";
const TOOLS = '[{"type":"function","function":{"name":"ls","parameters":{"type":"object","properties":{}}}}]';

function chat(messages: ChatMessage[] = [{ role: "user", content: "hi" }]): ChatRequest {
  return { model: "deepseek-flash", messages, toolsJson: TOOLS, effort: "max", maxTokens: 512 };
}

function providerFor(url: string, options: Partial<OpenAIProviderOptions> = {}): OpenAIProvider {
  return new OpenAIProvider({
    name: "sim",
    baseUrl: url,
    apiKey: KEY,
    apiKeyEnv: "DEEPSEEK_API_KEY",
    reasoningProtocol: "deepseek",
    maxRetries: 3,
    retryBaseMs: 1,
    ...options,
  });
}

async function withSim(
  script: ScriptedReply[],
  body: (sim: DeepSeekSim) => Promise<void>,
  simOptions: { apiKey?: string } = { apiKey: KEY },
): Promise<void> {
  const sim = await DeepSeekSim.start({ script, ...simOptions });
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

async function run(provider: OpenAIProvider, request = chat()) {
  const events: StreamEvent[] = [];
  const result = await provider.stream(request, {
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
  });
  return { result, events, retries: events.filter((event) => event.type === "retry") };
}

async function failure(provider: OpenAIProvider, request = chat()): Promise<ProviderError> {
  const error = await provider.stream(request, { signal: new AbortController().signal }).then(
    () => assert.fail("expected the call to fail"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ProviderError, String(error));
  return error;
}

Deno.test("OpenAIProvider.stream() sends the exact body and headers", () =>
  withSim([{ content: "ok" }], async (sim) => {
    const request = chat();
    const { result } = await run(providerFor(`${sim.url}/`, { version: "1.2.3" }), request);
    const sent = sim.requests[0]!;
    const expected = buildRequestBody(request, { reasoningProtocol: "deepseek", stream: true });
    assert.equal(sent.body, expected);
    assert.equal(result.requestBytes, new TextEncoder().encode(expected).byteLength);
    assert.equal(sent.path, "/chat/completions");
    assert.deepEqual(
      [sent.headers["authorization"], sent.headers["content-type"], sent.headers["accept"]],
      [`Bearer ${KEY}`, "application/json", "text/event-stream"],
    );
    assert.equal(sent.headers["user-agent"], "reasonix/1.2.3");
  }));

Deno.test("OpenAIProvider.stream() omits Authorization without a key and defaults the version", () =>
  withSim([{ content: "ok" }], async (sim) => {
    await run(providerFor(sim.url, { apiKey: undefined }));
    const sent = sim.requests[0]!;
    assert.equal(sent.headers["authorization"], undefined);
    assert.equal(sent.headers["user-agent"], "reasonix/dev");
  }, {}));

Deno.test("OpenAIProvider.stream() honours Retry-After on 429, capped by maxRetryDelayMs", () =>
  withSim([
    { fault: { kind: "status", status: 429, retryAfterSeconds: 0.02 } },
    { fault: { kind: "status", status: 429, retryAfterSeconds: 30 } },
    { content: "after the wait" },
  ], async (sim) => {
    const { result, retries } = await run(providerFor(sim.url, { retryBaseMs: 5000, maxRetryDelayMs: 40 }));
    assert.equal(result.message.content, "after the wait");
    assert.deepEqual(retries, [
      { type: "retry", attempt: 2, maxAttempts: 4, delayMs: 20, reason: "server returned 429" },
      { type: "retry", attempt: 3, maxAttempts: 4, delayMs: 40, reason: "server returned 429" },
    ]);
    assert.equal(sim.requests.length, 3);
  }));

Deno.test("OpenAIProvider.stream() backs off exponentially with jitter on 500", () =>
  withSim([
    { fault: { kind: "status", status: 500 } },
    { fault: { kind: "status", status: 500 } },
    { content: "recovered" },
  ], async (sim) => {
    const { result, retries } = await run(providerFor(sim.url, { retryBaseMs: 10 }));
    assert.equal(result.message.content, "recovered");
    assert.deepEqual(retries.map((event) => event.type === "retry" && event.attempt), [2, 3]);
    const [first, second] = retries.map((event) => event.type === "retry" ? event.delayMs : -1);
    assert.ok(first! >= 8 && first! <= 12, `first delay ${first}`);
    assert.ok(second! >= 16 && second! <= 24, `second delay ${second}`);
  }));

Deno.test("OpenAIProvider.stream() names host, status and attempts when retries run out", () => {
  const busy: ScriptedReply = { fault: { kind: "status", status: 503 } };
  return withSim([busy, busy, busy, busy], async (sim) => {
    const error = await failure(providerFor(sim.url));
    const host = new URL(sim.url).host;
    assert.equal(error.message, `Cannot get a reply from ${host}: server returned 503 after 4 attempts`);
    assert.deepEqual([error.code, error.status, error.attempts, error.retryable], [
      "provider.server",
      503,
      4,
      true,
    ]);
    assert.equal(sim.requests.length, 4);
  });
});

Deno.test("OpenAIProvider.stream() reports a truncated stream after its last attempt", () =>
  withSim([{ content: "abcdef", chunkSize: 1, fault: { kind: "truncate", afterChunks: 2 } }], async (sim) => {
    const error = await failure(providerFor(sim.url, { maxRetries: 0 }));
    const host = new URL(sim.url).host;
    assert.equal(
      error.message,
      `Cannot get a reply from ${host}: the reply stream ended early after 1 attempt`,
    );
    assert.equal(error.code, "provider.truncated");
  }));

Deno.test("OpenAIProvider.stream() explains a rejected key without revealing it", () =>
  withSim([{ content: "never" }], async (sim) => {
    const error = await failure(providerFor(sim.url, { apiKey: "sk-wrong-secret-456" }));
    assert.equal(error.message, "The provider rejected the API key in DEEPSEEK_API_KEY (401): check the key");
    assert.ok(!error.message.includes("sk-wrong-secret-456"));
    assert.deepEqual([error.code, error.status, error.attempts, error.retryable], [
      "provider.auth",
      401,
      1,
      false,
    ]);
    assert.equal(sim.requests.length, 1);
  }));

Deno.test("OpenAIProvider.stream() asks for a key when none was sent", () =>
  withSim([{ content: "never" }], async (sim) => {
    const error = await failure(providerFor(sim.url, { apiKey: undefined, apiKeyEnv: "MY_KEY" }));
    assert.equal(error.message, "The provider requires an API key (401): set MY_KEY");
  }));

Deno.test("OpenAIProvider.stream() reports insufficient balance on 402", () =>
  withSim([{ fault: { kind: "status", status: 402 } }], async (sim) => {
    const error = await failure(providerFor(sim.url));
    assert.equal(error.code, "provider.balance");
    assert.match(error.message, /insufficient balance \(402\)/);
    assert.equal(sim.requests.length, 1);
  }));

Deno.test("OpenAIProvider.stream() passes the reasoning replay 400 through", () =>
  withSim([{ reasoning: "real reasoning", toolCalls: [{ name: "ls", arguments: "{}" }] }], async (sim) => {
    const provider = providerFor(sim.url);
    const { result } = await run(provider);
    const edited = { ...result.message, reasoning_content: "edited" };
    const call = edited.tool_calls![0]!;
    const history: ChatMessage[] = [
      { role: "user", content: "hi" },
      edited,
      { role: "tool", content: "a.ts", tool_call_id: call.id, name: "ls" },
    ];
    const error = await failure(provider, chat(history));
    assert.equal(
      error.message,
      "The provider rejected the request (400): The reasoning_content in the thinking mode must be passed back to the API.",
    );
    assert.deepEqual([error.code, error.status, error.attempts], ["provider.bad_request", 400, 1]);
  }));

Deno.test("OpenAIProvider.stream() includes the provider's message on 422 and scrubs the key", () =>
  withSim([{ fault: { kind: "status", status: 422, message: `bad max_tokens for ${KEY}` } }], async (sim) => {
    const error = await failure(providerFor(sim.url));
    assert.equal(error.message, "The provider rejected the request (422): bad max_tokens for ***");
  }));

Deno.test("OpenAIProvider.stream() retries a refused connection and then says so", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const error = await failure(providerFor(`http://127.0.0.1:${port}`, { maxRetries: 1 }));
  assert.equal(
    error.message,
    `Cannot get a reply from 127.0.0.1:${port}: connection refused after 2 attempts`,
  );
  assert.deepEqual([error.code, error.attempts, error.retryable], ["provider.network", 2, true]);
});

Deno.test("OpenAIProvider.stream() aborts during the backoff sleep", () =>
  withSim([{ fault: { kind: "status", status: 503 } }], async (sim) => {
    const controller = new AbortController();
    const pending = providerFor(sim.url, { retryBaseMs: 600_000 }).stream(chat(), {
      signal: controller.signal,
      onEvent: (event) => event.type === "retry" && controller.abort(),
    });
    await assert.rejects(pending, { code: "provider.aborted", attempts: 1 });
    assert.equal(sim.requests.length, 1);
  }));

function fakeFetch(body: string, contentType = "text/event-stream"): typeof globalThis.fetch {
  return () => Promise.resolve(new Response(body, { headers: { "content-type": contentType } }));
}

Deno.test("OpenAIProvider.stream() takes miss = prompt when the cache split is absent", async () => {
  const sse = 'data: {"choices":[{"index":0,"delta":{"content":"x"},"finish_reason":"stop"}]}\r\n\r\n' +
    'data: {"choices":[],"usage":{"prompt_tokens":40,"completion_tokens":3}}\r\n\r\ndata: [DONE]\r\n\r\n';
  const { result } = await run(providerFor("http://sim.invalid", { fetch: fakeFetch(sse) }));
  assert.deepEqual(result.usage, {
    promptTokens: 40,
    completionTokens: 3,
    cacheHitTokens: 0,
    cacheMissTokens: 40,
    reasoningTokens: 0,
  });
  assert.deepEqual(result.message, { role: "assistant", content: "x" });
});

Deno.test("OpenAIProvider.stream() accepts a non-streamed JSON completion", async () => {
  const json = JSON.stringify({
    choices: [{ index: 0, message: { role: "assistant", content: "whole" }, finish_reason: "stop" }],
    usage: {
      prompt_tokens: 10,
      completion_tokens: 1,
      prompt_cache_hit_tokens: 4,
      prompt_cache_miss_tokens: 6,
    },
  });
  const { result, events } = await run(
    providerFor("http://sim.invalid", { fetch: fakeFetch(json, "application/json") }),
  );
  assert.deepEqual(result.message, { role: "assistant", content: "whole" });
  assert.deepEqual([result.usage.cacheHitTokens, result.usage.cacheMissTokens], [4, 6]);
  assert.deepEqual(events, [{ type: "text", text: "whole" }]);
});

Deno.test("OpenAIProvider.stream() rejects unparsable stream data", async () => {
  const provider = providerFor("http://sim.invalid", { fetch: fakeFetch("data: {oops\n\n") });
  const error = await failure(provider);
  assert.equal(error.code, "provider.bad_response");
  assert.equal(error.message, 'Cannot parse the reply from sim.invalid: not JSON: "{oops"');
});

Deno.test("new OpenAIProvider() rejects a base URL that is not http(s)", () => {
  assert.throws(() => providerFor("ftp://example.com"), { code: "config.base_url" });
  assert.throws(() => providerFor("not a url"), { code: "config.base_url" });
});
