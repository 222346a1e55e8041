/**
 * A failing summariser against the simulator: an empty reply, a tool call or an overflow costs at
 * most two extra requests, never loses the history, and backs off; past the force ratio the context
 * is compacted without asking the model again.
 */
import assert from "node:assert/strict";
import { isSummaryPrompt, STRICT_SUMMARY_REQUEST, SUMMARY_REQUEST } from "../../src/agent/compaction.ts";
import { readArchive } from "../../src/session/archive.ts";
import type { DeepSeekSim, RecordedRequest, ScriptedReply } from "../support/deepseek_sim.ts";
import { type ControllerSession, withController } from "../support/controller_session.ts";

/** The first request is about 2.1k tokens; after the long answer the estimate (bytes/4) passes 0.3 of the
 * window, the next request (real tokens) stays above it yet within the back-off margin of the failure. */
const WIDE_BAND = "[agent]\ncompact_ratio = 0.3\ncompact_force_ratio = 0.98\n\n" +
  "[model_overrides.deepseek-flash]\ncontext_window = 16000\n";
const LONG = "alpha ".repeat(3000);

type Fixture = ControllerSession;

async function withSession(
  options: { summary: (index: number) => ScriptedReply; extraToml?: string; turns?: string[] },
  body: (fixture: Fixture) => Promise<void>,
) {
  let summaries = 0;
  let turns = 0;
  const answers = options.turns ?? [LONG, "short one", "short two", "short three"];
  await withController({
    script: (request: RecordedRequest) => {
      const last = request.json.messages.at(-1);
      if (last.role === "user" && isSummaryPrompt(last.content)) return options.summary(summaries++);
      return { content: answers[turns++] ?? "ok" };
    },
    files: { "a.txt": "alpha\n" },
    ...(options.extraToml ? { extraToml: options.extraToml } : {}),
  }, body);
}

async function turn(controller: Fixture["controller"], text: string): Promise<void> {
  const outcome = await controller.runTurn(text);
  assert.equal(outcome.subtype, "success", outcome.result);
}

function summaryRequests(sim: DeepSeekSim): RecordedRequest[] {
  return sim.requests.filter((r) => isSummaryPrompt(r.json.messages.at(-1).content));
}

function userTexts(request: RecordedRequest): string[] {
  // deno-lint-ignore no-explicit-any
  return request.json.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
}

Deno.test("an empty summary costs one retry, keeps the history and backs off by a margin", async () => {
  const grow = "alpha ".repeat(1200);
  const options = {
    summary: () => ({ content: "" }),
    extraToml: WIDE_BAND,
    turns: [LONG, "short", grow, grow, "x"],
  };
  await withSession(options, async ({ sim, controller, events }) => {
    for (const text of ["one", "two", "three", "four", "five"]) await turn(controller, text);
    const lasts = sim.requests.map((r) => r.json.messages.at(-1).content);
    const S = SUMMARY_REQUEST, T = STRICT_SUMMARY_REQUEST;
    // "four" starts above the failed size but within the margin; "five" past it: one new attempt.
    assert.deepEqual(lasts, ["one", S, T, "two", "three", "four", S, T, "five"]);
    const summaries = summaryRequests(sim);
    assert.equal(summaries[0]!.json.tool_choice, "none", "tools present, calls disabled");
    assert.ok(Array.isArray(summaries[0]!.json.tools));
    assert.ok(
      summaries[1]!.usage!.prompt_cache_hit_tokens >= sim.requests[0]!.usage!.prompt_tokens,
      "the retry replays the cached prefix",
    );
    const last = sim.requests.at(-1)!;
    assert.deepEqual(userTexts(last).slice(1), ["one", "two", "three", "four", "five"], "nothing lost");
    assert.ok(last.json.messages.some((m: { content: string }) => m.content === LONG));
    const warnings = events.filter((e) => e.type === "warning" && /Compaction failed/.test(e.message));
    assert.equal(warnings.length, 2);
    assert.equal(events.filter((e) => e.type === "compaction").length, 0);
  });
});

Deno.test("a summary that calls a tool is retried once, and no tool runs", async () => {
  const toolCall = { toolCalls: [{ name: "ls", arguments: `{"path":"."}` }] };
  await withSession(
    { summary: () => toolCall, extraToml: WIDE_BAND },
    async ({ sim, controller, events }) => {
      for (const text of ["one", "two", "three"]) await turn(controller, text);
      assert.equal(summaryRequests(sim).length, 2);
      assert.equal(sim.requests.length, 5);
      assert.equal(events.filter((e) => e.type === "tool_call").length, 0, "no tool ran");
      assert.ok(events.some((e) => e.type === "warning" && /called a tool/.test(e.message)));
      assert.deepEqual(userTexts(sim.requests.at(-1)!).slice(1), ["one", "two", "three"]);
    },
  );
});

Deno.test("a summary request that overflows is retried once without the oldest turns", async () => {
  await withSession(
    { summary: () => ({ content: "Goal: count." }) },
    async ({ sim, controller, home: state }) => {
      await turn(controller, "one");
      await turn(controller, "two");
      const second = sim.requests[1]!;
      sim.contextWindow = second.usage!.prompt_tokens + second.usage!.completion_tokens + 20;
      assert.equal(await controller.compact(), true);
      const [overflowed, retried] = summaryRequests(sim);
      assert.equal(sim.requests.length, 4);
      assert.equal(overflowed!.status, 400);
      assert.equal(retried!.status, 200);
      assert.ok(
        !retried!.json.messages.some((m: { content: string }) => m.content === LONG),
        "oldest turn left out",
      );
      const [digest, recent] = controller.history().slice(2, 4).map((m) => String(m.content));
      assert.ok(
        recent!.includes("<user-message>\none\n</user-message>"),
        "the left-out turn's request is kept",
      );
      assert.ok(digest!.includes("Goal: count."));
      const file = digest!.match(/archive\/[^ ]+\.jsonl/)![0];
      const archived = await readArchive(`${state}/${file}`);
      assert.ok(archived.some((entry) => entry.message.content === LONG), "the original is archived");
    },
  );
});

Deno.test("an overflow on both attempts keeps the history after two requests", async () => {
  await withSession({ summary: () => ({ content: "Goal." }) }, async ({ sim, controller }) => {
    await turn(controller, "one");
    const before = JSON.stringify(controller.history());
    sim.contextWindow = 100;
    assert.equal(await controller.compact(), false);
    assert.equal(sim.requests.length, 3);
    assert.equal(JSON.stringify(controller.history()), before);
  });
});

Deno.test("past the force ratio a failed summary still compacts, without another request", async () => {
  const toml = "[agent]\ncompact_ratio = 0.3\ncompact_force_ratio = 0.3\n\n" +
    "[model_overrides.deepseek-flash]\ncontext_window = 16000\n";
  const turns = ["short", LONG, "after", "later"];
  await withSession(
    { summary: () => ({ content: "" }), extraToml: toml, turns },
    async ({ sim, controller, events }) => {
      for (const text of ["one", "two", "three", "four"]) await turn(controller, text);
      assert.equal(summaryRequests(sim).length, 2, "the failed attempt only");
      const compaction = events.find((e) => e.type === "compaction");
      assert.ok(compaction?.type === "compaction" && compaction.reason === "forced");
      const [digest, recent] = controller.history().slice(2, 4).map((m) => String(m.content));
      assert.ok(recent!.includes("<user-message>\none\n</user-message>"));
      assert.ok(digest!.includes("No model summary"));
    },
  );
});
