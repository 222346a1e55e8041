/**
 * Effect tests for context compaction against the simulator: the summary request replays the cached
 * prefix, the request after it is system + tools + context + summary + new turn, and the session file
 * resumes to the compacted history.
 */
import assert from "node:assert/strict";
import { resolvePaths } from "../../src/config/paths.ts";
import { loadSession } from "../../src/session/store.ts";
import { explainSessionCache, formatCacheReport } from "../../src/control/cache_explain.ts";
import { RECENT_OPEN, SUMMARY_OPEN, SUMMARY_REQUEST } from "../../src/agent/compaction.ts";
import type { ScriptedReply } from "../support/deepseek_sim.ts";
import { type ControllerSession, withController } from "../support/controller_session.ts";
import { assertPrependOnly, assertStablePrefix } from "../support/prefix_guard.ts";

/** The first request of a session is about 4.3k simulated tokens; 0.8 × 8000 leaves room for a turn. */
const SMALL_WINDOW = "context_window = 8000";
const LONG_ANSWER = "alpha ".repeat(3500);
const SUMMARY = "Goal: read a.txt. Found: it holds alpha. Open work: none.";

type Fixture = ControllerSession;

function withSession(
  options: { script: ScriptedReply[]; extraToml?: string },
  body: (fixture: Fixture) => Promise<void>,
) {
  return withController({ ...options, files: { "a.txt": "alpha\n" } }, body);
}

async function turn(controller: Fixture["controller"], text: string): Promise<void> {
  const outcome = await controller.runTurn(text);
  assert.equal(outcome.subtype, "success", outcome.result);
}

const SCRIPT: ScriptedReply[] = [
  { reasoning: "long", content: LONG_ANSWER },
  // The summary answer also asks for a tool: it must be ignored, not run.
  { content: SUMMARY, toolCalls: [{ name: "ls", arguments: `{"path":"."}` }] },
  { reasoning: "short", content: "beta" },
  { reasoning: "short", content: "gamma" },
];

Deno.test("Controller compacts once past compact_ratio and the summary request hits the cache", async () => {
  await withSession({ script: SCRIPT, extraToml: SMALL_WINDOW }, async ({ sim, controller, events }) => {
    await turn(controller, "say alpha a lot");
    await turn(controller, "now say beta");
    await turn(controller, "now say gamma");
    const bodies = sim.requests.map((r) => r.body);
    assert.equal(bodies.length, 4);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies.slice(0, 2));
    assertPrependOnly(bodies.slice(2));
    const summaryRequest = sim.requests[1]!;
    assert.equal(summaryRequest.json.messages.at(-1).content, SUMMARY_REQUEST);
    assert.ok(
      summaryRequest.usage!.prompt_cache_hit_tokens >= sim.requests[0]!.usage!.prompt_tokens,
      "the summary request replays the previous request and its answer",
    );
    const first = sim.requests[0]!.json.messages;
    const after = sim.requests[2]!.json.messages;
    assert.equal(after.length, 5);
    assert.deepEqual(after.slice(0, 2), first.slice(0, 2), "system prompt and session context are kept");
    assert.equal(after[2].role, "user");
    assert.ok(after[2].content.startsWith(`${SUMMARY_OPEN}\nDigest 1 `));
    assert.ok(after[2].content.endsWith(`Summary:\n${SUMMARY}\n</compacted-summary>`));
    assert.ok(after[3].content.startsWith(RECENT_OPEN));
    assert.ok(after[3].content.includes("<user-message>\nsay alpha a lot\n</user-message>"), "kept verbatim");
    assert.equal(after[4].content, "now say beta");
    const compactions = events.filter((e) => e.type === "compaction");
    assert.equal(compactions.length, 1);
    const [event] = compactions;
    assert.ok(event?.type === "compaction" && event.reason === "context_limit");
    assert.ok(event.afterTokens < event.beforeTokens);
    assert.equal(events.filter((e) => e.type === "tool_call").length, 0, "no tool ran");
    assert.equal(controller.totals().modelCalls, 4, "the summary call is counted");
  });
});

Deno.test("loadSession() replays the compacted history byte for byte", async () => {
  await withSession({ script: SCRIPT, extraToml: SMALL_WINDOW }, async ({ controller }) => {
    await turn(controller, "say alpha a lot");
    await turn(controller, "now say beta");
    const session = await loadSession(controller.sessionFile);
    assert.equal(JSON.stringify(session.messages), JSON.stringify(controller.history()));
    assert.equal(session.messages.length, 6);
    assert.ok(session.records.some((r) => r.type === "message" && r.message.content === LONG_ANSWER));
  });
});

Deno.test("a resumed compacted session extends the request it left off with", async () => {
  await withSession(
    { script: [...SCRIPT.slice(0, 3), { content: "delta" }], extraToml: SMALL_WINDOW },
    async ({ sim, controller, boot }) => {
      await turn(controller, "say alpha a lot");
      await turn(controller, "now say beta");
      const resumed = await boot({ resume: { kind: "latest" } });
      try {
        await turn(resumed, "now say delta");
      } finally {
        await resumed.close();
      }
      const bodies = sim.requests.map((r) => r.body);
      assert.equal(bodies.length, 4);
      assertPrependOnly(bodies.slice(2));
    },
  );
});

Deno.test("cache explain shows the request after a compaction as a reset", async () => {
  await withSession({ script: SCRIPT, extraToml: SMALL_WINDOW }, async ({ controller, home, ws }) => {
    await turn(controller, "say alpha a lot");
    await turn(controller, "now say beta");
    await turn(controller, "now say gamma");
    const report = await explainSessionCache({ paths: resolvePaths({ REASONIX_HOME: home }), workspace: ws });
    assert.deepEqual(report.rows.map((row) => row.verdict.kind), ["first", "intact", "reset", "intact"]);
    assert.match(formatCacheReport(report), /prefix reset after \d+ parts \(compaction \(context_limit\)\)/);
  });
});

Deno.test("Controller does not compact below compact_ratio", async () => {
  await withSession({ script: [SCRIPT[0]!, SCRIPT[2]!, SCRIPT[3]!] }, async ({ sim, controller, events }) => {
    await turn(controller, "say alpha a lot");
    await turn(controller, "now say beta");
    await turn(controller, "now say gamma");
    const bodies = sim.requests.map((r) => r.body);
    assert.equal(bodies.length, 3);
    assertStablePrefix(bodies);
    assertPrependOnly(bodies);
    assert.equal(events.filter((e) => e.type === "compaction").length, 0);
  });
});

Deno.test("Controller.compact() keeps the history when the summary is empty", async () => {
  await withSession(
    { script: [{ content: "hi" }, { content: "  " }, { content: "" }, { content: "Goal: greet." }] },
    async ({ sim, controller, events }) => {
      await turn(controller, "hello");
      const before = JSON.stringify(controller.history());
      assert.equal(await controller.compact(), false);
      assert.equal(sim.requests.length, 3, "one retry, no more");
      assert.equal(JSON.stringify(controller.history()), before);
      assert.ok(events.some((e) => e.type === "warning" && /summary was empty/.test(e.message)));
      assert.equal(await controller.compact(), true);
      const history = controller.history();
      assert.equal(history.length, 4);
      assert.ok(String(history[2]!.content).endsWith("Summary:\nGoal: greet.\n</compacted-summary>"));
      assert.ok(String(history[3]!.content).includes("<user-message>\nhello\n</user-message>"));
      const event = events.find((e) => e.type === "compaction");
      assert.ok(event?.type === "compaction" && event.reason === "manual");
      const session = await loadSession(controller.sessionFile);
      assert.equal(JSON.stringify(session.messages), JSON.stringify(history));
    },
  );
});

Deno.test("Controller compacts between the requests of a turn and keeps that turn whole", async () => {
  const script: ScriptedReply[] = [
    { content: "hi" },
    { reasoning: "read", toolCalls: [{ name: "read_file", arguments: `{"path":"big.txt"}` }] },
    { content: SUMMARY },
    { reasoning: "answer", content: "big.txt holds alpha" },
  ];
  await withSession({ script, extraToml: SMALL_WINDOW }, async ({ sim, controller, ws }) => {
    await Deno.writeTextFile(`${ws}/big.txt`, "alpha\n".repeat(4000));
    await turn(controller, "hello");
    await turn(controller, "what is in big.txt?");
    assert.equal(sim.requests.length, 4);
    const summaryInput = sim.requests[2]!.json.messages;
    assert.equal(summaryInput.at(-2).role, "tool", "the tool result precedes the summary request");
    assert.equal(summaryInput.at(-1).content, SUMMARY_REQUEST);
    const before = sim.requests[1]!.json.messages;
    const after = sim.requests[3]!.json.messages;
    const roles = after.map((m: { role: string }) => m.role);
    assert.deepEqual(roles, ["system", "user", "user", "user", "user", "assistant", "tool"]);
    assert.ok(after[2].content.startsWith(SUMMARY_OPEN));
    assert.ok(after[3].content.includes("<user-message>\nhello\n</user-message>"));
    assert.deepEqual(after.slice(4, 5), before.slice(-1), "the turn's own task is kept verbatim");
    assert.equal(after[5].reasoning_content, "read", "the turn's tool call keeps its reasoning");
  });
});

Deno.test("context_window = 0 never compacts", async () => {
  const script = [SCRIPT[0]!, SCRIPT[2]!, SCRIPT[3]!];
  await withSession({ script, extraToml: "context_window = 0" }, async ({ sim, controller, events }) => {
    await turn(controller, "say alpha a lot");
    await turn(controller, "now say beta");
    await turn(controller, "now say gamma");
    assert.equal(sim.requests.length, 3);
    assertPrependOnly(sim.requests.map((r) => r.body));
    assert.equal(events.filter((e) => e.type === "compaction").length, 0);
    assert.equal(controller.contextWindow, null);
  });
});

Deno.test("a single turn that fills the window keeps its task and latest step, and drops older steps", async () => {
  const read = (path: string): ScriptedReply => ({
    reasoning: `read ${path}`,
    toolCalls: [{ name: "read_file", arguments: JSON.stringify({ path }) }],
  });
  const script = [read("big1.txt"), read("big2.txt"), { content: SUMMARY }, {
    reasoning: "end",
    content: "both",
  }];
  await withSession({ script, extraToml: "context_window = 9000" }, async ({ sim, controller, ws }) => {
    const big = "alpha beta gamma delta\n".repeat(500);
    await Deno.writeTextFile(`${ws}/big1.txt`, big);
    await Deno.writeTextFile(`${ws}/big2.txt`, big);
    await turn(controller, "read both files");
    assert.equal(sim.requests.length, 4);
    assert.equal(sim.requests[2]!.json.messages.at(-1).content, SUMMARY_REQUEST);
    const after = sim.requests[3]!.json.messages;
    const roles = after.map((m: { role: string }) => m.role);
    assert.deepEqual(roles, ["system", "user", "user", "user", "assistant", "tool"]);
    assert.ok(after[2].content.startsWith(SUMMARY_OPEN));
    assert.equal(after[3].content, "read both files", "the turn's task is kept");
    assert.equal(after[4].reasoning_content, "read big2.txt");
    assert.ok(after[5].content.includes("250\talpha beta gamma delta"), "the latest result whole");
  });
});
