import assert from "node:assert/strict";
import { type DeepSeekSim, type ScriptedReply, withSim } from "./deepseek_sim.ts";
import { dueIn } from "./_sim_pace.ts";

const USER = { role: "user", content: "Hello there" };
const BODY = {
  model: "deepseek-flash",
  messages: [USER],
  stream: true,
  stream_options: { include_usage: true },
};

function post(sim: DeepSeekSim): Promise<Response> {
  return fetch(`${sim.url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(BODY),
  });
}

function contentOf(raw: string): { pieces: string[]; done: boolean } {
  const events = raw.split("\n\n").filter((event) => event.startsWith("data: {"));
  const pieces = events.map((event) => JSON.parse(event.slice(6)).choices[0]?.delta?.content)
    .filter((piece) => typeof piece === "string");
  return { pieces, done: raw.includes("data: [DONE]") };
}

const REPLY: ScriptedReply = { content: "abcdefghijklmnopqrst", chunkSize: 2 };

Deno.test("DeepSeekSim paced at tokensPerSecond sends the same frames as at full speed, one token per delta", async () => {
  await withSim({ script: [REPLY, { ...REPLY, tokensPerSecond: 400 }] }, async (sim) => {
    const full = await (await post(sim)).text();
    const paced = await (await post(sim)).text();
    const frames = (raw: string) => raw.split("\n\n").length;
    assert.deepEqual(contentOf(paced), contentOf(full));
    assert.equal(frames(paced), frames(full));
    assert.equal(contentOf(paced).pieces.length, 10);
    const progress = sim.requests[1]!.stream!;
    assert.deepEqual([progress.tokens, progress.sent, progress.tokensPerSecond], [10, 10, 400]);
    assert.ok(progress.doneAt! >= progress.startedAt);
    assert.equal(sim.requests[0]!.stream!.tokensPerSecond, null);
  });
});

Deno.test("DeepSeekSim applies the server's rate to replies without one, and 0 means full speed", async () => {
  await withSim(
    {
      tokensPerSecond: 1000,
      script: [REPLY, { ...REPLY, tokensPerSecond: 0 }, { ...REPLY, tokensPerSecond: 250 }],
    },
    async (sim) => {
      for (let i = 0; i < 3; i++) {
        assert.equal(contentOf(await (await post(sim)).text()).pieces.join(""), REPLY.content);
      }
      assert.deepEqual(sim.requests.map((request) => request.stream!.tokensPerSecond), [1000, null, 250]);
    },
  );
});

Deno.test("DeepSeekSim paced stream is still running after its first token: sent counts up, close() ends it early", async () => {
  await withSim({ script: [{ content: "x".repeat(200), chunkSize: 1, tokensPerSecond: 2 }] }, async (sim) => {
    const response = await post(sim);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let raw = "";
    while (contentOf(raw).pieces.length === 0) raw += (await reader.read()).value ?? "";
    const progress = sim.requests[0]!.stream!;
    assert.ok(progress.sent >= 1 && progress.sent < progress.tokens, JSON.stringify(progress));
    assert.equal(progress.doneAt, undefined);
    await sim.close();
    for (let part = await reader.read(); !part.done; part = await reader.read()) raw += part.value;
    const { pieces, done } = contentOf(raw);
    assert.equal(done, false, "a closed simulator sends no [DONE]");
    assert.ok(pieces.length < 200);
  });
});

Deno.test("dueIn() spaces tokens by 1000/rate ms from the start", () => {
  assert.equal(dueIn(0, 200, 1000, 1000), 0);
  assert.equal(dueIn(10, 200, 1000, 1000), 50);
  assert.equal(dueIn(10, 200, 1000, 1060), -10);
});
