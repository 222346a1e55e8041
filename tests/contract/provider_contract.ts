/**
 * @module
 * The behaviour every Provider implementation must show against the DeepSeek simulator. Each
 * implementation's test calls `runProviderContract({ name, newProvider })`.
 */
import assert from "node:assert/strict";
import { DeepSeekSim, type ScriptedReply } from "../support/deepseek_sim.ts";
import type { ChatMessage, ChatRequest, Provider, StreamEvent } from "../../src/provider/provider.ts";
import { ReasonixError } from "../../src/lib/errors.ts";

export interface ContractProviderOptions {
  baseUrl: string;
  apiKey: string;
  /** Must be used for every request: the suite watches responses through it. */
  fetch: typeof globalThis.fetch;
}

export interface ProviderContractOptions {
  name: string;
  /** The provider must retry at least once, with a backoff of a few milliseconds. */
  newProvider(options: ContractProviderOptions): Provider;
  model?: string;
}

const API_KEY = "sk-contract-key";

interface Harness {
  sim: DeepSeekSim;
  provider: Provider;
  request(messages?: ChatMessage[]): ChatRequest;
  /** Resolves when the response headers of the next request have arrived. */
  headersArrived: Promise<void>;
}

/** Streams `request` to its end, keeping every event it emitted. */
async function streamAll(provider: Provider, request: ChatRequest) {
  const events: StreamEvent[] = [];
  const result = await provider.stream(request, {
    signal: new AbortController().signal,
    onEvent: (event) => events.push(event),
  });
  return { result, events };
}

export function runProviderContract(options: ProviderContractOptions): void {
  async function withSim(script: ScriptedReply[], body: (harness: Harness) => Promise<void>): Promise<void> {
    const sim = await DeepSeekSim.start({ script, apiKey: API_KEY });
    const arrived = Promise.withResolvers<void>();
    async function watched(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      const response = await fetch(input, init);
      arrived.resolve();
      return response;
    }
    try {
      const provider = options.newProvider({ baseUrl: sim.url, apiKey: API_KEY, fetch: watched });
      const model = options.model ?? "deepseek-flash";
      const request = (messages: ChatMessage[] = [{ role: "user", content: "hi" }]): ChatRequest => ({
        model,
        messages,
        toolsJson: "[]",
        effort: "auto",
      });
      await body({ sim, provider, request, headersArrived: arrived.promise });
    } finally {
      await sim.close();
    }
  }

  function test(behaviour: string, fn: () => Promise<void>): void {
    Deno.test(`${options.name} contract: ${behaviour}`, fn);
  }

  test("streams text as events and returns it with usage", () =>
    withSim([{ content: "Hello, world! 你好", chunkSize: 3 }], async ({ sim, provider, request }) => {
      const { result, events } = await streamAll(provider, request());
      assert.deepEqual(result.message, { role: "assistant", content: "Hello, world! 你好" });
      assert.equal(result.finishReason, "stop");
      assert.deepEqual(
        events.map((event) => event.type === "text" ? event.text : "?").join(""),
        "Hello, world! 你好",
      );
      assert.ok(events.length > 1);
      const sent = sim.requests[0]!.usage!;
      assert.deepEqual(result.usage, {
        promptTokens: sent.prompt_tokens,
        completionTokens: sent.completion_tokens,
        cacheHitTokens: sent.prompt_cache_hit_tokens,
        cacheMissTokens: sent.prompt_cache_miss_tokens,
        reasoningTokens: sent.completion_tokens_details.reasoning_tokens,
      });
      assert.equal(result.requestBytes, new TextEncoder().encode(sim.requests[0]!.body).byteLength);
    }));

  test("returns reasoning before content", () =>
    withSim([{ reasoning: "Let me think: 思考", content: "Answer" }], async ({ provider, request }) => {
      const { result, events } = await streamAll(provider, request());
      assert.deepEqual(result.message, {
        role: "assistant",
        content: "Answer",
        reasoning_content: "Let me think: 思考",
      });
      assert.ok(result.usage.reasoningTokens > 0);
      const kinds = [...new Set(events.map((event) => event.type))];
      assert.deepEqual(kinds, ["reasoning", "text"]);
    }));

  test("reassembles tool calls with their exact argument strings", () => {
    const calls = [
      { id: "call_a", name: "read_file", arguments: '{"path": "src/思.ts",  "limit":10}' },
      { id: "call_b", name: "bash", arguments: '{"command":"ls -la"}' },
    ];
    return withSim(
      [{ reasoning: "two calls", toolCalls: calls, chunkSize: 2 }],
      async ({ provider, request }) => {
        const { result, events } = await streamAll(provider, request());
        assert.deepEqual(result.message, {
          role: "assistant",
          content: null,
          reasoning_content: "two calls",
          tool_calls: calls.map((call) => ({
            id: call.id,
            type: "function",
            function: { name: call.name, arguments: call.arguments },
          })),
        });
        assert.equal(result.finishReason, "tool_calls");
        assert.deepEqual(events.filter((event) => event.type === "tool_call"), [
          { type: "tool_call", index: 0, id: "call_a", name: "read_file" },
          { type: "tool_call", index: 1, id: "call_b", name: "bash" },
        ]);
      },
    );
  });

  test("replays a returned tool-call turn without breaking the reasoning rule", () => {
    const script: ScriptedReply[] = [
      { reasoning: "look first", toolCalls: [{ name: "ls", arguments: "{}" }] },
      { reasoning: "now answer", content: "Done" },
    ];
    return withSim(script, async ({ sim, provider, request }) => {
      const signal = new AbortController().signal;
      const first = await provider.stream(request(), { signal });
      const call = first.message.tool_calls![0]!;
      const history: ChatMessage[] = [
        { role: "user", content: "hi" },
        first.message,
        { role: "tool", content: "a.ts", tool_call_id: call.id, name: "ls" },
      ];
      const second = await provider.stream(request(history), { signal });
      assert.equal(second.message.content, "Done");
      assert.deepEqual(sim.requests.map((recorded) => recorded.status), [200, 200]);
      assert.deepEqual(sim.requests[1]!.json.messages[1], first.message);
    });
  });

  test("ignores keep-alive comment lines", () =>
    withSim([{ keepAlive: 3, content: "still here" }], async ({ provider, request }) => {
      const result = await provider.stream(request(), { signal: new AbortController().signal });
      assert.equal(result.message.content, "still here");
    }));

  test("retries a truncated stream and emits a retry event first", () =>
    withSim(
      [{ content: "partial answer", chunkSize: 2, fault: { kind: "truncate", afterChunks: 3 } }, {
        content: "full answer",
      }],
      async ({ sim, provider, request }) => {
        const { result, events } = await streamAll(provider, request());
        assert.equal(result.message.content, "full answer");
        assert.equal(sim.requests.length, 2);
        const retry = events.findIndex((event) => event.type === "retry");
        assert.ok(retry > 0, "partial deltas then a retry event");
        const after = events.slice(retry + 1).map((event) => event.type === "text" ? event.text : "?");
        assert.equal(after.join(""), "full answer");
      },
    ));

  test("rejects with provider.aborted when aborted mid-stream", () =>
    withSim([{ keepAlive: 1, fault: { kind: "hang" } }], async ({ provider, request, headersArrived }) => {
      const controller = new AbortController();
      const pending = provider.stream(request(), { signal: controller.signal });
      await headersArrived;
      controller.abort();
      await assert.rejects(pending, (error: unknown) => {
        assert.ok(error instanceof ReasonixError);
        assert.equal(error.code, "provider.aborted");
        return true;
      });
    }));

  test("sends nothing when the signal is already aborted", () =>
    withSim([{ content: "never" }], async ({ sim, provider, request }) => {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(provider.stream(request(), { signal: controller.signal }), {
        code: "provider.aborted",
      });
      assert.equal(sim.requests.length, 0);
    }));
}
