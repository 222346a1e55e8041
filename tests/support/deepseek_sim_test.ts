import assert from "node:assert/strict";
import {
  countTokens,
  DeepSeekSim,
  inputTokens,
  promptBreakdown,
  renderOutput,
  renderPieces,
  type ScriptedReply,
  withSim,
} from "./deepseek_sim.ts";
import { commonPrefixLength, UNIT_INTERVAL } from "./_sim_cache.ts";
import { encodeTokens } from "./tokenizer.ts";
import { idealHitTokens } from "./ideal_cache.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

interface Sse {
  comments: string[];
  data: Json[];
  done: boolean;
}

function chatBody(messages: Json[], extra: Json = {}): Json {
  return {
    model: "deepseek-flash",
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...extra,
  };
}

function post(
  sim: DeepSeekSim,
  body: Json,
  init: { key?: string; path?: string; signal?: AbortSignal } = {},
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  return fetch(`${sim.url}${init.path ?? "/chat/completions"}`, {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
    signal: init.signal,
  });
}

function parseSse(raw: string): Sse {
  const sse: Sse = { comments: [], data: [], done: false };
  for (const event of raw.split("\n\n")) {
    if (event === "") continue;
    if (event.startsWith(":")) sse.comments.push(event);
    else if (event === "data: [DONE]") sse.done = true;
    else if (event.startsWith("data: ")) sse.data.push(JSON.parse(event.slice(6)));
    else throw new Error(`Unexpected SSE event "${event}"`);
  }
  return sse;
}

async function stream(sim: DeepSeekSim, body: Json): Promise<Sse> {
  const response = await post(sim, body);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  return parseSse(await response.text());
}

function assemble(sse: Sse) {
  let reasoning = "";
  let content = "";
  const calls: { id: string; name: string; arguments: string }[] = [];
  for (const chunk of sse.data) {
    const delta = chunk.choices[0]?.delta ?? {};
    reasoning += delta.reasoning_content ?? "";
    content += delta.content ?? "";
    for (const part of delta.tool_calls ?? []) {
      if (part.id) calls[part.index] = { id: part.id, name: part.function.name, arguments: "" };
      calls[part.index]!.arguments += part.function.arguments;
    }
  }
  const finish = sse.data.map((chunk) => chunk.choices[0]?.finish_reason).filter((reason) => reason);
  const usage = sse.data.at(-1)?.usage;
  return { reasoning, content, calls, finish, usage };
}

async function errorOf(response: Response): Promise<{ status: number; message: string; type: string }> {
  const body = await response.json();
  return { status: response.status, message: body.error.message, type: body.error.type };
}

const SYSTEM = { role: "system", content: "You are a test." };
const USER = { role: "user", content: "Hello there" };

Deno.test("DeepSeekSim streams content in pieces with role first, finish, usage and [DONE]", async () => {
  await withSim(
    { script: [{ content: "Hello, simulated world!", chunkSize: 5, reasoning: "" }] },
    async (sim) => {
      const sse = await stream(sim, chatBody([USER]));
      assert.deepEqual(sse.data[0].choices[0].delta, { role: "assistant" });
      assert.equal(sse.data[0].object, "chat.completion.chunk");
      assert.equal(sse.data[0].model, "deepseek-flash");
      const pieces = sse.data.slice(1, -2).map((chunk) => chunk.choices[0].delta.content);
      assert.deepEqual(pieces, ["Hello", ", sim", "ulate", "d wor", "ld!"]);
      const result = assemble(sse);
      assert.equal(result.content, "Hello, simulated world!");
      assert.deepEqual(result.finish, ["stop"]);
      assert.deepEqual(sse.data.at(-1).choices, []);
      assert.equal(sse.done, true);
    },
  );
});

Deno.test("DeepSeekSim omits the usage chunk without stream_options.include_usage", async () => {
  await withSim({ script: [{ content: "ok" }] }, async (sim) => {
    const sse = await stream(sim, { model: "deepseek-flash", messages: [USER], stream: true });
    assert.equal(sse.data.some((chunk) => chunk.usage !== undefined), false);
    assert.equal(sse.done, true);
  });
});

Deno.test("DeepSeekSim sends reasoning before content only while thinking is enabled", async () => {
  const reply: ScriptedReply = { reasoning: "Let me think about it.", content: "Answer." };
  await withSim({ script: [reply, reply, reply] }, async (sim) => {
    const on = await stream(sim, chatBody([USER]));
    const firstContent = on.data.findIndex((chunk) => chunk.choices[0]?.delta.content !== undefined);
    const lastReasoning = on.data.findLastIndex((chunk) =>
      chunk.choices[0]?.delta.reasoning_content !== undefined
    );
    assert.ok(lastReasoning < firstContent);
    assert.equal(assemble(on).reasoning, "Let me think about it.");
    assert.equal(assemble(on).usage.completion_tokens_details.reasoning_tokens, 6);

    const explicit = await stream(sim, chatBody([USER], { thinking: { type: "enabled" } }));
    assert.equal(assemble(explicit).reasoning, "Let me think about it.");

    const off = await stream(sim, chatBody([USER], { thinking: { type: "disabled" } }));
    assert.equal(assemble(off).reasoning, "");
    assert.equal(assemble(off).content, "Answer.");
    assert.equal(assemble(off).usage.completion_tokens_details.reasoning_tokens, 0);
  });
});

Deno.test("DeepSeekSim streams tool calls in pieces that reassemble to the scripted arguments", async () => {
  const args = '{"path": "src/main.ts", "limit": 200}';
  const reply: ScriptedReply = {
    content: "Reading.",
    toolCalls: [{ name: "read_file", arguments: args }, {
      name: "glob",
      arguments: '{"pattern":"*.ts"}',
      id: "mine",
    }],
    chunkSize: 4,
  };
  await withSim({ script: [reply, reply] }, async (sim) => {
    const sse = await stream(sim, chatBody([USER]));
    const parts = sse.data.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    assert.deepEqual(parts[0], {
      index: 0,
      id: "call_1",
      type: "function",
      function: { name: "read_file", arguments: "" },
    });
    assert.deepEqual(parts[1], { index: 0, function: { arguments: '{"pa' } });
    assert.equal(parts.filter((part) => part.index === 0).length, 1 + Math.ceil(args.length / 4));
    const result = assemble(sse);
    assert.deepEqual(result.calls, [
      { id: "call_1", name: "read_file", arguments: args },
      { id: "mine", name: "glob", arguments: '{"pattern":"*.ts"}' },
    ]);
    assert.equal(result.content, "Reading.");
    assert.deepEqual(result.finish, ["tool_calls"]);

    const again = assemble(await stream(sim, chatBody([USER])));
    assert.equal(again.calls[0]!.id, "call_2");
  });
});

Deno.test("DeepSeekSim answers one chat.completion without stream", async () => {
  const reply: ScriptedReply = {
    reasoning: "Hmm.",
    content: "",
    toolCalls: [{ name: "ls", arguments: "{}" }],
  };
  await withSim({ script: [reply] }, async (sim) => {
    const response = await post(sim, { model: "deepseek-v4-pro", messages: [USER] });
    assert.equal(response.headers.get("content-type"), "application/json");
    const body = await response.json();
    assert.equal(body.object, "chat.completion");
    assert.equal(body.model, "deepseek-v4-pro");
    assert.deepEqual(body.choices[0].message, {
      role: "assistant",
      content: "",
      reasoning_content: "Hmm.",
      tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } }],
    });
    assert.equal(body.choices[0].finish_reason, "tool_calls");
    // "<｜User｜>" is one token, "Hello there" two; "Hmm." three, "ls" one, "{}" one.
    assert.deepEqual(body.usage, {
      prompt_tokens: 3,
      completion_tokens: 3 + 1 + 1,
      total_tokens: 3 + 5,
      prompt_cache_hit_tokens: 0,
      prompt_cache_miss_tokens: 3,
      completion_tokens_details: { reasoning_tokens: 3 },
    });
  });
});

Deno.test("DeepSeekSim.stats() sums the usage of answered requests", async () => {
  const script: ScriptedReply[] = [{ content: "one two three" }, { content: "four" }, {
    fault: { kind: "status", status: 503 },
  }];
  await withSim({ script }, async (sim) => {
    const first = assemble(await stream(sim, chatBody([USER]))).usage;
    const second =
      assemble(await stream(sim, chatBody([USER, { role: "assistant", content: "one two three" }, USER])))
        .usage;
    await (await post(sim, chatBody([USER]))).body?.cancel();
    for (const usage of [first, second]) {
      assert.equal(usage.prompt_cache_hit_tokens + usage.prompt_cache_miss_tokens, usage.prompt_tokens);
      assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
    }
    assert.equal(first.completion_tokens, countTokens("one two three"));
    assert.equal(first.completion_tokens, 3);
    assert.deepEqual(sim.stats(), {
      requests: 3,
      promptTokens: first.prompt_tokens + second.prompt_tokens,
      hitTokens: first.prompt_cache_hit_tokens + second.prompt_cache_hit_tokens,
      missTokens: first.prompt_cache_miss_tokens + second.prompt_cache_miss_tokens,
      completionTokens: first.completion_tokens + second.completion_tokens,
    });
    assert.ok(second.prompt_cache_hit_tokens > 0);
    assert.deepEqual(sim.requests.map((request) => request.status), [200, 200, 503]);
  });
});

Deno.test("DeepSeekSim status fault answers a JSON error with Retry-After and is recorded", async () => {
  const script: ScriptedReply[] = [
    { fault: { kind: "status", status: 429, retryAfterSeconds: 2 } },
    { fault: { kind: "status", status: 500, message: "boom" } },
    { content: "ok" },
  ];
  await withSim({ script }, async (sim) => {
    const limited = await post(sim, chatBody([USER]));
    assert.equal(limited.headers.get("retry-after"), "2");
    assert.deepEqual(await errorOf(limited), {
      status: 429,
      message: "Rate Limit Reached",
      type: "rate_limit_error",
    });
    const failed = await post(sim, chatBody([USER]));
    assert.equal(failed.headers.get("retry-after"), null);
    assert.deepEqual(await errorOf(failed), { status: 500, message: "boom", type: "server_error" });
    assert.equal(assemble(await stream(sim, chatBody([USER]))).content, "ok");
    assert.equal(sim.requests.length, 3);
    assert.equal(sim.requests[0]!.usage, undefined);
    assert.equal(sim.stats().promptTokens, sim.requests[2]!.usage!.prompt_tokens);
  });
});

Deno.test("DeepSeekSim truncate fault closes the body after the given data chunks", async () => {
  const script: ScriptedReply[] = [
    { content: "abcdefghijklmnop", chunkSize: 2, fault: { kind: "truncate", afterChunks: 3 } },
    { content: "ab", fault: { kind: "truncate", afterChunks: 99 } },
    { content: "abcdefgh", fault: { kind: "truncate", afterChunks: 1 } },
  ];
  await withSim({ script }, async (sim) => {
    const cut = await stream(sim, chatBody([USER]));
    assert.equal(cut.data.length, 3);
    assert.equal(assemble(cut).content, "abcd");
    assert.equal(cut.done, false);
    const capped = await stream(sim, chatBody([USER]));
    assert.deepEqual(assemble(capped).finish, []);
    assert.equal(assemble(capped).usage, undefined);
    assert.equal(capped.done, false);
    const plain = await post(sim, { model: "deepseek-flash", messages: [USER] });
    assert.equal(plain.status, 200);
    await assert.rejects(plain.json(), SyntaxError);
    assert.equal(sim.stats().promptTokens, 0);
  });
});

Deno.test("DeepSeekSim slow_first_byte fault answers normally after the delay", async () => {
  await withSim(
    { script: [{ content: "late", fault: { kind: "slow_first_byte", delayMs: 50 } }] },
    async (sim) => {
      assert.equal(assemble(await stream(sim, chatBody([USER]))).content, "late");
      assert.ok(sim.requests[0]!.usage);
    },
  );
});

Deno.test("DeepSeekSim slow_first_byte fault ends early when the sim closes", async () => {
  const sim = await DeepSeekSim.start({
    script: [{ content: "x", fault: { kind: "slow_first_byte", delayMs: 60_000 } }],
  });
  const pending = post(sim, chatBody([USER]));
  while (sim.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await sim.close();
  const response = await pending;
  await response.body?.cancel();
});

Deno.test("DeepSeekSim hang fault sends headers then nothing until the client aborts", async () => {
  await withSim({
    script: [{ content: "never", keepAlive: 1, fault: { kind: "hang" } }, { content: "next" }],
  }, async (sim) => {
    const controller = new AbortController();
    const response = await post(sim, chatBody([USER]), { signal: controller.signal });
    assert.equal(response.status, 200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), ": keep-alive\n\n");
    const next = reader.read();
    controller.abort();
    await assert.rejects(next);
    assert.equal(assemble(await stream(sim, chatBody([USER]))).content, "next");
  });
});

Deno.test("DeepSeekSim.close() ends a hanging stream", async () => {
  const sim = await DeepSeekSim.start({ script: [{ fault: { kind: "hang" } }] });
  const response = await post(sim, { model: "deepseek-flash", messages: [USER] });
  const body = response.text();
  await sim.close();
  assert.equal(await body, "");
});

Deno.test("DeepSeekSim sends keep-alive comment lines before the first data line", async () => {
  await withSim({ script: [{ content: "hi", keepAlive: 3 }] }, async (sim) => {
    const response = await post(sim, chatBody([USER]));
    const raw = await response.text();
    assert.ok(raw.startsWith(": keep-alive\n\n: keep-alive\n\n: keep-alive\n\ndata: {"));
    assert.equal(assemble(parseSse(raw)).content, "hi");
  });
});

Deno.test("DeepSeekSim rejects a wrong or missing API key with 401", async () => {
  await withSim(
    { apiKey: "sk-right", script: [{ content: "a" }, { content: "b" }, { content: "c" }] },
    async (sim) => {
      const expected = {
        status: 401,
        message: "Authentication Fails, Your api key is invalid",
        type: "authentication_error",
      };
      assert.deepEqual(await errorOf(await post(sim, chatBody([USER]), { key: "sk-wrong" })), expected);
      assert.deepEqual(await errorOf(await post(sim, chatBody([USER]))), expected);
      const ok = await post(sim, chatBody([USER]), { key: "sk-right" });
      assert.equal(assemble(parseSse(await ok.text())).content, "c");
      assert.equal(sim.requests[2]!.headers.authorization, "Bearer sk-right");
    },
  );
});

Deno.test("DeepSeekSim validates the model and the body shape", async () => {
  await withSim({ script: Array.from({ length: 6 }, () => ({ content: "ok" })) }, async (sim) => {
    const unknown = await errorOf(await post(sim, { ...chatBody([USER]), model: "gpt-4o" }));
    assert.deepEqual(unknown, { status: 400, message: "Model Not Exist", type: "invalid_request_error" });
    assert.equal((await errorOf(await post(sim, "{not json"))).status, 400);
    assert.equal((await errorOf(await post(sim, { model: "deepseek-flash" }))).status, 400);
    assert.equal((await errorOf(await post(sim, chatBody([{ role: "wizard", content: "x" }])))).status, 400);
    for (const model of ["sim-tiny", "deepseek-reasoner"]) {
      assert.equal(assemble(await stream(sim, { ...chatBody([USER]), model })).content, "ok");
    }
    assert.equal(sim.requests[1]!.body, "{not json");
    assert.equal(sim.requests[1]!.json, undefined);
  });
});

Deno.test("DeepSeekSim answers 500 when the script is exhausted and push() refills it", async () => {
  await withSim({}, async (sim) => {
    const exhausted = await errorOf(await post(sim, chatBody([USER])));
    assert.deepEqual(exhausted, { status: 500, message: "simulator script exhausted", type: "server_error" });
    sim.push({ content: "refilled" });
    assert.equal(assemble(await stream(sim, chatBody([USER]))).content, "refilled");
  });
});

Deno.test("DeepSeekSim accepts /v1/chat/completions and answers 404 elsewhere", async () => {
  await withSim({ script: [{ content: "v1" }] }, async (sim) => {
    assert.equal((await errorOf(await post(sim, chatBody([USER]), { path: "/models" }))).status, 404);
    const response = await post(sim, chatBody([USER]), { path: "/v1/chat/completions" });
    assert.equal(assemble(parseSse(await response.text())).content, "v1");
    assert.deepEqual(sim.requests.map((request) => request.path), ["/models", "/v1/chat/completions"]);
  });
});

Deno.test("DeepSeekSim calls a responder with the recorded request and its index", async () => {
  const seen: [string, number][] = [];
  const script = (request: { json: Json }, index: number): ScriptedReply => {
    seen.push([request.json.messages.at(-1).content, index]);
    return { content: `reply ${index}` };
  };
  await withSim({ script }, async (sim) => {
    assert.equal(assemble(await stream(sim, chatBody([{ role: "user", content: "a" }]))).content, "reply 0");
    assert.equal(assemble(await stream(sim, chatBody([{ role: "user", content: "b" }]))).content, "reply 1");
    assert.deepEqual(seen, [["a", 0], ["b", 1]]);
    assert.throws(() => sim.push({ content: "x" }), TypeError);
  });
});

Deno.test("DeepSeekSim records the exact raw body of each request", async () => {
  await withSim({ script: [{ content: "ok" }] }, async (sim) => {
    const raw = '{"model":"deepseek-flash",  "messages":[{"role":"user","content":"é"}]}';
    await (await post(sim, raw)).body?.cancel();
    assert.equal(sim.requests[0]!.body, raw);
    assert.equal(sim.requests[0]!.headers["content-type"], "application/json");
  });
});

const TOOL_REPLY: ScriptedReply = {
  reasoning: "I should list files.",
  toolCalls: [{ name: "ls", arguments: '{"path": "."}' }],
};

function toolTurn(reasoning: string | undefined, args = '{"path": "."}'): Json[] {
  const assistant: Json = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "ls", arguments: args } }],
  };
  if (reasoning !== undefined) assistant.reasoning_content = reasoning;
  return [assistant, { role: "tool", tool_call_id: "call_1", name: "ls", content: "a.ts b.ts" }];
}

Deno.test("DeepSeekSim answers 400 when tool-call reasoning is not replayed", async () => {
  const message = "The reasoning_content in the thinking mode must be passed back to the API.";
  await withSim(
    { script: [TOOL_REPLY, { content: "x" }, { content: "x" }, { content: "done" }] },
    async (sim) => {
      await stream(sim, chatBody([SYSTEM, USER]));
      const missing = await errorOf(await post(sim, chatBody([SYSTEM, USER, ...toolTurn(undefined)])));
      assert.deepEqual(missing, { status: 400, message, type: "invalid_request_error" });
      const changed = await errorOf(
        await post(sim, chatBody([SYSTEM, USER, ...toolTurn("Something else.")])),
      );
      assert.deepEqual(changed, { status: 400, message, type: "invalid_request_error" });
      const replayed = await stream(sim, chatBody([SYSTEM, USER, ...toolTurn("I should list files.")]));
      assert.equal(assemble(replayed).content, "done");
    },
  );
});

Deno.test("DeepSeekSim answers 400 when a plain reply of a tool-call turn lacks reasoning_content", async () => {
  const message = "The reasoning_content in the thinking mode must be passed back to the API.";
  await withSim(
    { script: [TOOL_REPLY, { content: "x" }, { content: "x" }, { content: "done" }] },
    async (sim) => {
      await stream(sim, chatBody([SYSTEM, USER]));
      const turn = toolTurn("I should list files.");
      const note = { role: "assistant", content: "[This turn ended without a reply]" };
      const next = { role: "user", content: "go on" };
      const missing = await errorOf(await post(sim, chatBody([SYSTEM, USER, ...turn, note, next])));
      assert.deepEqual(missing, { status: 400, message, type: "invalid_request_error" });
      const closed = { ...note, reasoning_content: "" };
      const replayed = await stream(sim, chatBody([SYSTEM, USER, ...turn, closed, next]));
      assert.equal(assemble(replayed).content, "x");
      const generated = { role: "assistant", content: "x" };
      const own = await stream(sim, chatBody([SYSTEM, USER, ...turn, generated, next]));
      assert.equal(assemble(own).content, "done");
    },
  );
});

Deno.test("DeepSeekSim answers 400 when tool calls are not followed by their tool messages", async () => {
  await withSim({ script: [{ content: "a" }, { content: "b" }, { content: "c" }] }, async (sim) => {
    const [call, result] = toolTurn("");
    const dangling = await errorOf(await post(sim, chatBody([USER, call!, USER])));
    assert.equal(dangling.status, 400);
    assert.match(dangling.message, /must be followed by tool messages.*call_1$/);
    const stray = await errorOf(await post(sim, chatBody([USER, result!])));
    assert.match(stray.message, /role 'tool' must be a response/);
    assert.equal(assemble(await stream(sim, chatBody([USER, call!, result!, USER]))).content, "c");
  });
});

Deno.test("DeepSeekSim skips the replay rule when thinking is disabled and accepts unknown ids with any key", async () => {
  await withSim({ script: [{ content: "a" }, { content: "b" }] }, async (sim) => {
    const off = await stream(
      sim,
      chatBody([USER, ...toolTurn(undefined)], { thinking: { type: "disabled" } }),
    );
    assert.equal(assemble(off).content, "a");
    const foreign = await stream(sim, chatBody([USER, ...toolTurn("")]));
    assert.equal(assemble(foreign).content, "b");
  });
});

Deno.test("DeepSeekSim cache: A+B then A+B+C hits the end of the first input", async () => {
  await withSim({ script: [{ content: "one" }, { content: "two" }] }, async (sim) => {
    const first = [SYSTEM, USER];
    const second = [SYSTEM, USER, { role: "user", content: "And more." }];
    const a = assemble(await stream(sim, chatBody(first))).usage;
    assert.equal(a.prompt_cache_hit_tokens, 0);
    const b = assemble(await stream(sim, chatBody(second))).usage;
    assert.equal(b.prompt_tokens, inputTokens({ messages: second }).length);
    assert.equal(b.prompt_cache_hit_tokens, inputTokens({ messages: first }).length);
    assert.equal(b.prompt_cache_hit_tokens, a.prompt_tokens);
  });
});

Deno.test("DeepSeekSim cache: changing the system prompt misses", async () => {
  await withSim({ script: [{ content: "one" }, { content: "two" }] }, async (sim) => {
    await stream(sim, chatBody([SYSTEM, USER]));
    const changed =
      assemble(await stream(sim, chatBody([{ role: "system", content: "You are a rest." }, USER]))).usage;
    assert.equal(changed.prompt_cache_hit_tokens, 0);
    assert.equal(changed.prompt_cache_miss_tokens, changed.prompt_tokens);
  });
});

Deno.test("DeepSeekSim cache: replaying the assistant output exactly hits the output unit", async () => {
  await withSim({ script: [TOOL_REPLY, { content: "done" }] }, async (sim) => {
    const first = assemble(await stream(sim, chatBody([SYSTEM, USER])));
    const turn = { reasoning: first.reasoning, content: first.content, toolCalls: first.calls };
    const output = first.usage.prompt_tokens + countTokens(renderOutput(turn));
    const replay = assemble(await stream(sim, chatBody([SYSTEM, USER, ...toolTurn(first.reasoning)]))).usage;
    assert.equal(replay.prompt_cache_hit_tokens, output);
    assert.ok(replay.prompt_cache_miss_tokens > 0);
  });
});

Deno.test("DeepSeekSim cache: re-serialised arguments miss after the point they differ", async () => {
  await withSim({ script: [TOOL_REPLY, { content: "done" }] }, async (sim) => {
    const first = assemble(await stream(sim, chatBody([SYSTEM, USER])));
    const compact = chatBody([SYSTEM, USER, ...toolTurn(first.reasoning, JSON.stringify({ path: "." }))]);
    const usage = assemble(await stream(sim, compact)).usage;
    assert.equal(usage.prompt_cache_hit_tokens, first.usage.prompt_tokens);
  });
});

Deno.test("DeepSeekSim cache: a detected common prefix is stored for later requests", async () => {
  const script = [{ content: "1" }, { content: "2" }, { content: "3" }];
  await withSim({ script }, async (sim) => {
    const base = [SYSTEM, USER];
    const branch = (text: string) =>
      chatBody([...base, { role: "assistant", content: "x" }, { role: "user", content: text }]);
    const b = assemble(await stream(sim, branch("Branch B"))).usage;
    const c = assemble(await stream(sim, branch("Branch C"))).usage;
    const d = assemble(await stream(sim, branch("Branch D"))).usage;
    assert.equal(b.prompt_cache_hit_tokens, 0);
    assert.equal(c.prompt_cache_hit_tokens, 0);
    const common = commonPrefixLength(inputTokens(branch("Branch B")), inputTokens(branch("Branch C")));
    assert.ok(common > 0 && common < b.prompt_tokens);
    assert.equal(d.prompt_cache_hit_tokens, common);
  });
});

Deno.test("DeepSeekSim cache: long inputs store a unit every 1024 tokens", async () => {
  await withSim({ script: [{ content: "1" }, { content: "2" }] }, async (sim) => {
    const words = Array.from({ length: 1200 }, (_, i) => `word${i}`).join(" ");
    const long = { role: "user", content: words };
    const first = assemble(await stream(sim, chatBody([long, { role: "user", content: "first" }]))).usage;
    assert.ok(first.prompt_tokens > 2 * UNIT_INTERVAL, `${first.prompt_tokens} tokens`);
    // Differs inside the long message, past the second interval: only the interval units can hit.
    const changed = { role: "user", content: `${words.slice(0, -40)} and something else` };
    const other = assemble(await stream(sim, chatBody([changed, { role: "user", content: "second" }]))).usage;
    const common = commonPrefixLength(
      inputTokens(chatBody([long])),
      inputTokens(chatBody([changed])),
    );
    assert.ok(common > 2 * UNIT_INTERVAL && common < 3 * UNIT_INTERVAL, `${common} tokens in common`);
    assert.equal(other.prompt_cache_hit_tokens, 2 * UNIT_INTERVAL);
  });
});

Deno.test("DeepSeekSim cache: faulted requests store no units", async () => {
  const script: ScriptedReply[] = [{ content: "x", fault: { kind: "truncate", afterChunks: 1 } }, {
    content: "y",
  }];
  await withSim({ script }, async (sim) => {
    await stream(sim, chatBody([SYSTEM, USER]));
    const again = assemble(await stream(sim, chatBody([SYSTEM, USER]))).usage;
    assert.equal(again.prompt_cache_hit_tokens, 0);
  });
});

Deno.test("deepseek_sim.ts runs standalone and stops when stdin closes", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const scriptPath = `${dir}/script.json`;
    await Deno.writeTextFile(scriptPath, JSON.stringify([{ content: "standalone" }]));
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--no-prompt",
        new URL("./deepseek_sim.ts", import.meta.url).pathname,
        "--script",
        scriptPath,
      ],
      stdin: "piped",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let out = "";
    while (!out.includes("\n")) out += (await lines.read()).value ?? "";
    const match = /^listening (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
    assert.ok(match, out);
    const response = await fetch(`${match[1]}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "deepseek-flash", messages: [USER] }),
    });
    assert.equal((await response.json()).choices[0].message.content, "standalone");
    await child.stdin.close();
    assert.equal((await child.status).code, 0);
    while (!(await lines.read()).done) { /* drain */ }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const READ_FILE_TOOL = {
  type: "function",
  function: {
    name: "read_file",
    description: "Read a file.",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, offset: { type: "integer", minimum: 1 } },
      required: ["path"],
    },
  },
};

Deno.test("DeepSeekSim renders tools, then messages, piece by piece with DeepSeek's role tokens", () => {
  const body = chatBody([SYSTEM, USER], { tools: [READ_FILE_TOOL] });
  const pieces = renderPieces(body);
  assert.deepEqual(pieces.map((piece) => piece.kind), ["tools", "tools", "system", "context"]);
  assert.equal(pieces[1]!.text, `${JSON.stringify(READ_FILE_TOOL)}\n`);
  assert.equal(pieces[2]!.text, "You are a test.");
  assert.equal(pieces[3]!.text, "<｜User｜>Hello there");
  const ids = inputTokens(body);
  assert.equal(ids.length, pieces.reduce((sum, piece) => sum + countTokens(piece.text), 0));
  assert.deepEqual([...ids.slice(-3)], [...encodeTokens("<｜User｜>Hello there")]);
});

Deno.test("DeepSeekSim counts the prompt by part with the real tokenizer", async () => {
  await withSim({ script: [{ content: "ok" }] }, async (sim) => {
    const body = chatBody([SYSTEM, USER], { tools: [READ_FILE_TOOL] });
    const usage = assemble(await stream(sim, body)).usage;
    const breakdown = promptBreakdown(body);
    assert.equal(usage.prompt_tokens, breakdown.total);
    assert.equal(breakdown.total, breakdown.system + breakdown.tools + breakdown.context);
    assert.equal(breakdown.system, countTokens("You are a test."));
    assert.equal(breakdown.context, 3);
    const schema = `${JSON.stringify(READ_FILE_TOOL)}\n`;
    assert.equal(breakdown.tools, countTokens("## Tools\n") + countTokens(schema));
    // 212 characters: 53 tokens at 4 characters a token, 52 with the BPE.
    assert.equal(schema.length, 212);
    assert.equal(countTokens(schema), 52);
  });
});

Deno.test("idealHitTokens: an exact prepend-only client reaches the ideal, a rewritten answer does not", async () => {
  const script: ScriptedReply[] = [TOOL_REPLY, { content: "done" }, TOOL_REPLY, { content: "done" }];
  await withSim({ script }, async (sim) => {
    const first = assemble(await stream(sim, chatBody([SYSTEM, USER])));
    await stream(sim, chatBody([SYSTEM, USER, ...toolTurn(first.reasoning)]));
    const exact = sim.stats().hitTokens;
    assert.ok(exact > 0);
    assert.equal(idealHitTokens(sim.requests), exact);
  });
  await withSim({ script }, async (sim) => {
    const first = assemble(await stream(sim, chatBody([SYSTEM, USER])));
    await stream(sim, chatBody([SYSTEM, USER, ...toolTurn(first.reasoning, JSON.stringify({ path: "." }))]));
    assert.ok(sim.stats().hitTokens < idealHitTokens(sim.requests));
  });
});
