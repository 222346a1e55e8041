import assert from "node:assert/strict";
import { OpenAIProvider, type OpenAIProviderOptions } from "../../../src/provider/deepseek/client.ts";
import type { ProviderTimeouts } from "../../../src/provider/deepseek/stall_watch.ts";
import { ProviderError } from "../../../src/provider/errors.ts";
import type { ChatRequest, StreamEvent } from "../../../src/provider/provider.ts";
import { DeepSeekSim, type ScriptedReply } from "../../support/deepseek_sim.ts";

const SHORT: ProviderTimeouts = { connectMs: 300, firstByteMs: 300, idleMs: 300 };

const REQUEST: ChatRequest = {
  model: "deepseek-flash",
  messages: [{ role: "user", content: "hi" }],
  toolsJson: "[]",
  effort: "high",
};

function providerFor(url: string, options: Partial<OpenAIProviderOptions> = {}): OpenAIProvider {
  return new OpenAIProvider({
    name: "sim",
    baseUrl: url,
    apiKey: "sk-sim",
    apiKeyEnv: "DEEPSEEK_API_KEY",
    reasoningProtocol: "deepseek",
    maxRetries: 2,
    retryBaseMs: 1,
    timeouts: SHORT,
    ...options,
  });
}

async function withSim(script: ScriptedReply[], body: (sim: DeepSeekSim) => Promise<void>): Promise<void> {
  const sim = await DeepSeekSim.start({ script });
  try {
    await body(sim);
  } finally {
    await sim.close();
  }
}

async function stream(provider: OpenAIProvider, signal = new AbortController().signal) {
  const events: StreamEvent[] = [];
  const started = performance.now();
  const outcome = await provider.stream(REQUEST, { signal, onEvent: (event) => events.push(event) }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  const retries = events.flatMap((event) => event.type === "retry" ? [event.reason] : []);
  return { ...outcome, retries, elapsedMs: performance.now() - started };
}

Deno.test("a reply that sends headers but no byte times out, and the retry gets the answer", () =>
  withSim([{ fault: { kind: "hang" } }, { content: "second try" }], async (sim) => {
    const { result, retries, elapsedMs } = await stream(providerFor(sim.url));
    assert.equal(result?.message.content, "second try");
    assert.deepEqual(retries, ["no data within 0.3 s of the response headers"]);
    assert.equal(sim.requests.length, 2);
    assert.ok(elapsedMs < 3000, `took ${elapsedMs} ms`);
  }));

Deno.test("a server that holds back its response headers times out on the connect deadline", () =>
  withSim([{ fault: { kind: "slow_first_byte", delayMs: 5000 } }, { content: "ok" }], async (sim) => {
    const { result, retries } = await stream(providerFor(sim.url));
    assert.equal(result?.message.content, "ok");
    assert.deepEqual(retries, ["no response within 0.3 s"]);
  }));

Deno.test("a stream that stalls mid-reply times out on the idle deadline and is retried whole", () =>
  withSim([
    { content: "partial answer", chunkSize: 2, fault: { kind: "stall", afterChunks: 3 } },
    { content: "whole answer" },
  ], async (sim) => {
    const { result, retries } = await stream(providerFor(sim.url));
    assert.equal(result?.message.content, "whole answer");
    assert.deepEqual(retries, ["the reply stream stalled for 0.3 s"]);
    assert.equal(sim.requests[0]!.body, sim.requests[1]!.body);
  }));

Deno.test("a permanent stall ends with provider.timeout after the last attempt", () => {
  const stall: ScriptedReply = { fault: { kind: "hang" } };
  return withSim([stall, stall, stall], async (sim) => {
    const { error, elapsedMs } = await stream(providerFor(sim.url));
    assert.ok(error instanceof ProviderError, String(error));
    const host = new URL(sim.url).host;
    assert.equal(
      error.message,
      `Cannot get a reply from ${host}: no data within 0.3 s of the response headers after 3 attempts`,
    );
    assert.deepEqual([error.code, error.retryable, error.attempts], ["provider.timeout", true, 3]);
    assert.match(error.hint ?? "", /timeouts/);
    assert.equal(sim.requests.length, 3);
    assert.ok(elapsedMs < 5000, `took ${elapsedMs} ms`);
  });
});

Deno.test("the deadlines bound the gap between chunks, not the whole reply", () =>
  // 5 tokens a second: 200 ms between chunks, a reply of about 1.6 s, under 300 ms deadlines.
  withSim([{ content: "slow but steady", chunkSize: 2, tokensPerSecond: 5, keepAlive: 1 }], async (sim) => {
    const { result, retries, elapsedMs } = await stream(providerFor(sim.url));
    assert.equal(result?.message.content, "slow but steady");
    assert.deepEqual(retries, []);
    assert.ok(elapsedMs > 1000, `took ${elapsedMs} ms`);
  }));

Deno.test("cancelling during a stall is an abort, not a timeout", () =>
  withSim([{ fault: { kind: "hang" } }], async (sim) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const provider = providerFor(sim.url, { timeouts: { ...SHORT, firstByteMs: 60_000 } });
    const { error } = await stream(provider, controller.signal);
    assert.ok(error instanceof ProviderError, String(error));
    assert.equal(error.code, "provider.aborted");
  }));
