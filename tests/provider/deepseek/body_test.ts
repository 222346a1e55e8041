import assert from "node:assert/strict";
import { buildRequestBody } from "../../../src/provider/deepseek/body.ts";
import type { ChatMessage, ChatRequest } from "../../../src/provider/provider.ts";

const TOOLS = '[{"type":"function","function":{"name":"read_file","parameters":{"type":"object"}}}]';
// Arguments whose spacing and key order JSON.parse/stringify would change.
const ARGS = '{ "path" : "a.ts",  "b":1 }';

const history: ChatMessage[] = [
  { role: "system", content: "sys" },
  { role: "user", content: "hi" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "c1", type: "function", function: { name: "read_file", arguments: ARGS } }],
  },
  { role: "tool", content: "x", tool_call_id: "c1", name: "read_file" },
  { role: "assistant", content: "done", reasoning_content: "thought" },
  { role: "assistant", content: "plain" },
];

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return { model: "deepseek-flash", messages: history, toolsJson: TOOLS, effort: "auto", ...overrides };
}

const MESSAGES = '[{"role":"system","content":"sys"},{"role":"user","content":"hi"},' +
  '{"role":"assistant","content":null,"reasoning_content":"","tool_calls":[{"id":"c1","type":"function",' +
  '"function":{"name":"read_file","arguments":"{ \\"path\\" : \\"a.ts\\",  \\"b\\":1 }"}}]},' +
  '{"role":"tool","content":"x","tool_call_id":"c1","name":"read_file"},' +
  '{"role":"assistant","content":"done","reasoning_content":"thought"},' +
  '{"role":"assistant","content":"plain"}]';

const PREFIX = `{"model":"deepseek-flash","messages":${MESSAGES},"tools":${TOOLS},"stream":true,` +
  `"stream_options":{"include_usage":true}`;

Deno.test("buildRequestBody() orders keys and maps auto effort to high", () => {
  const body = buildRequestBody(request(), { reasoningProtocol: "deepseek", stream: true });
  assert.equal(body, `${PREFIX},"thinking":{"type":"enabled"},"reasoning_effort":"high"}`);
  assert.equal(JSON.parse(body).messages[2].tool_calls[0].function.arguments, ARGS);
});

Deno.test("buildRequestBody() sends low, high and max as the effort", () => {
  for (const effort of ["low", "high", "max"] as const) {
    const body = buildRequestBody(request({ effort }), { reasoningProtocol: "deepseek", stream: true });
    assert.equal(body, `${PREFIX},"thinking":{"type":"enabled"},"reasoning_effort":"${effort}"}`);
  }
});

Deno.test("buildRequestBody() disables thinking without an effort field", () => {
  const body = buildRequestBody(request({ effort: "disabled" }), {
    reasoningProtocol: "deepseek",
    stream: true,
  });
  assert.equal(body, `${PREFIX},"thinking":{"type":"disabled"}}`);
});

Deno.test("buildRequestBody() with protocol none keeps a tool turn's reasoning and sends no thinking fields", () => {
  const body = buildRequestBody(request({ effort: "max" }), { reasoningProtocol: "none", stream: true });
  // The final answer of a turn that called tools keeps its reasoning: the strict replay rule wants it.
  const messages = MESSAGES.replace(',"reasoning_content":""', "");
  assert.equal(
    body,
    `{"model":"deepseek-flash","messages":${messages},"tools":${TOOLS},"stream":true,` +
      `"stream_options":{"include_usage":true}}`,
  );
});

Deno.test("buildRequestBody() with protocol none strips the reasoning of a turn that called no tool", () => {
  const plain: ChatMessage[] = [
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello", reasoning_content: "greeting" },
    { role: "user", content: "again" },
  ];
  const body = buildRequestBody(request({ messages: plain }), { reasoningProtocol: "none", stream: false });
  assert.deepEqual(JSON.parse(body).messages[1], { role: "assistant", content: "hello" });
});

Deno.test("buildRequestBody() with protocol none replays reasoning the server streamed with a tool call", () => {
  const turn: ChatMessage = {
    role: "assistant",
    content: null,
    reasoning_content: "why",
    tool_calls: [{ id: "c9", type: "function", function: { name: "read_file", arguments: "{}" } }],
  };
  const body = buildRequestBody(request({ messages: [turn] }), { reasoningProtocol: "none", stream: false });
  assert.ok(body.includes(`"reasoning_content":"why","tool_calls"`));
});

Deno.test("buildRequestBody() keeps stored reasoning on a tool-call turn as it is", () => {
  const turn: ChatMessage = {
    role: "assistant",
    content: "",
    reasoning_content: "why",
    tool_calls: [{ id: "c2", type: "function", function: { name: "ls", arguments: "{}" } }],
  };
  const body = buildRequestBody(request({ messages: [turn], toolsJson: "[]" }), {
    reasoningProtocol: "deepseek",
    stream: false,
  });
  assert.equal(
    body,
    `{"model":"deepseek-flash","messages":[${JSON.stringify(turn)}],"stream":false,` +
      `"thinking":{"type":"enabled"},"reasoning_effort":"high"}`,
  );
});

Deno.test("buildRequestBody() omits empty tools and sends max_tokens only when positive", () => {
  const options = { reasoningProtocol: "none", stream: false } as const;
  const messages = [{ role: "user", content: "q" }] as const;
  const base = request({ messages, toolsJson: "[]" });
  const start = '{"model":"deepseek-flash","messages":[{"role":"user","content":"q"}],"stream":false';
  assert.equal(buildRequestBody(base, options), `${start}}`);
  assert.equal(buildRequestBody({ ...base, maxTokens: 0 }, options), `${start}}`);
  assert.equal(buildRequestBody({ ...base, maxTokens: 4096 }, options), `${start},"max_tokens":4096}`);
});

Deno.test("buildRequestBody() gives the same bytes for the same request and does not mutate it", () => {
  const before = JSON.stringify(history);
  const options = { reasoningProtocol: "deepseek", stream: true } as const;
  const first = buildRequestBody(request(), options);
  const copy = request({ messages: JSON.parse(JSON.stringify(history)) });
  assert.equal(buildRequestBody(copy, options), first);
  assert.equal(JSON.stringify(history), before);
});

Deno.test("buildRequestBody() keeps an earlier history's bytes as the prefix of a longer one", () => {
  const options = { reasoningProtocol: "deepseek", stream: true } as const;
  const short = buildRequestBody(request({ messages: history.slice(0, 4) }), options);
  const long = buildRequestBody(request(), options);
  const head = short.slice(0, short.indexOf('],"tools":'));
  assert.ok(head.length > 100);
  assert.ok(long.startsWith(head + ","));
});
