/**
 * The recall test: 300 scripted turns through the simulator with an 8k-token window, so the context is
 * compacted several times; the 20 facts the user stated in the first turns are still in every request,
 * verbatim, to the end — also when they are phrased without any particular word ("Deploy target:
 * staging-eu", Chinese labels) — while the 280 "Step N: do X" requests are never pinned, and the pinned
 * digests stay byte-stable (an earlier digest is kept verbatim, pins only grow at a compaction).
 */
import assert from "node:assert/strict";
import { RECALL_FACTS, type RecallRun, runRecallSession } from "../support/recall_session.ts";
import { isDigest, isSummaryPrompt } from "../../src/agent/compaction.ts";
import { digestPins } from "../../src/agent/pins.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";
import { historyDirs } from "../../src/control/session_search.ts";
import { searchHistory } from "../../src/session/history_search.ts";

/** Facts none of the old trigger words would have pinned (see OLD_TRIGGERS). */
const PLAIN_FACTS = [
  "Deploy target: staging-eu-4471",
  "The CI runs on Buildkite agents tagged bk-9921.",
  "Staging database port: 6543",
  "Release branch: release/2026.12",
  "On-call this week: Priya Raman",
  "Feature flag for search: search_v2_rollout",
  "The exports bucket: s3://acme-exports-7781",
  "Queue retry limit: 7",
  "Metrics namespace: acme.prod.api",
  "Reports go out in UTC+8.",
  "Node 20.11 or newer required.",
  "Billing code owner: @dana-k",
  "Cache TTL: 900 seconds",
  "Error budget dashboard: grafana/d/err-budget-17",
  "Logs kept 45 days.",
  "Default page size: 50",
  "API version header: X-Api-Version 2026-10-01",
  "部署窗口：周二 14:00 至 16:00",
  "沙箱账号 ID 为 778812",
  "文档站字体：Inter 4.0",
];

/** The words the earlier pinning looked for; the plain facts hold none of them. */
const OLD_TRIGGERS = new RegExp(
  "\\b(is|are|was|were|am|my|our|we|i|i'm|we're|always|never|must|should|don't|do not|prefer|" +
    "remember|note|use|uses|using|instead|called|named|lives|located)\\b|是|在|我的|我们|使用|不要|别用|必须|" +
    "总是|永远|一律|叫做|名为|位于|偏好|喜欢|记住|注意|用的",
  "i",
);

const VERBS = [
  "add a test for",
  "fix the build of",
  "rename the helpers in",
  "refactor",
  "update the docs of",
];
const varied = (turn: number) => `Step ${turn}: ${VERBS[turn % VERBS.length]} module ${turn}.`;

type Sent = { body: string; json: { messages: ChatMessage[] } };

function assertRecalled(run: RecallRun, facts: readonly string[]): void {
  assert.equal(run.failures, 0);
  assert.ok(run.compactionsBefore.length >= 5, `compacted ${run.compactionsBefore.length} times`);
  for (const request of run.requests.slice(run.compactionsBefore[0]!)) {
    for (const fact of facts) {
      assert.ok(request.body.includes(JSON.stringify(fact).slice(1, -1)), `request lacks: ${fact}`);
    }
  }
}

/** Every turn request's digests start with the previous one's, byte for byte; no step is ever pinned. */
function assertStablePins(requests: readonly Sent[]): void {
  let previous: string[] = [];
  for (const request of requests) {
    const messages = request.json.messages;
    if (isSummaryPrompt(String(messages.at(-1)!.content))) continue;
    const digests = messages.filter((message) => isDigest(message)).map((m) => String(m.content));
    assert.deepEqual(digests.slice(0, previous.length), previous, "an earlier digest is kept verbatim");
    previous = digests;
  }
  const pins = previous.flatMap(digestPins);
  assert.ok(pins.length > 0);
  for (const pin of pins) assert.doesNotMatch(pin, /^Step \d+:/m, `a request was pinned: ${pin}`);
  assert.ok(!previous.some((digest) => digest.includes("moved out of the context")), "nothing was cut");
}

Deno.test("every fact the user stated survives repeated compactions verbatim", async () => {
  const run = await runRecallSession({ turns: 300, window: 8000 });
  assertRecalled(run, RECALL_FACTS);
  for (const [i, request] of run.requests.entries()) {
    if (!isSummaryPrompt(request.json.messages.at(-1).content)) continue;
    const before = run.requests[i - 1]!;
    assert.equal(
      request.json.messages.length,
      before.json.messages.length + 2,
      "the summary request is not trimmed",
    );
    assert.ok(request.usage!.prompt_cache_hit_tokens >= before.usage!.prompt_tokens, "and it hits the cache");
  }
  const last = run.requests.at(-1)!;
  assert.ok(last.body.includes("Step 300: continue the refactor with module 300."));
  assert.equal(run.events.filter((e) => e.type === "warning").length, 0);
  assertStablePins(run.requests);
});

Deno.test("facts phrased without any trigger word survive too, and 280 step requests are never pinned", async () => {
  for (const fact of PLAIN_FACTS) assert.doesNotMatch(fact, OLD_TRIGGERS, fact);
  const run = await runRecallSession({ turns: 300, window: 8000, facts: PLAIN_FACTS, step: varied });
  assertRecalled(run, PLAIN_FACTS);
  assert.ok(run.requests.at(-1)!.body.includes(varied(300)));
  assertStablePins(run.requests);
});

Deno.test("past the pin budget the oldest pins move out in one counted step, and history still finds them", async () => {
  const facts = Array.from(
    { length: 80 },
    (_, i) => `Service ${i + 1} listens on port ${7000 + i} in zone z${i % 5}.`,
  );
  let found = "";
  const run = await runRecallSession({
    turns: 110,
    window: 8000,
    facts,
    inspect: async ({ paths, workspace }) => {
      const dirs = { ...historyDirs(paths), workspace };
      const result = await searchHistory(dirs, {
        query: "Service 1 listens port 7000",
        scope: "project",
        limit: 1,
      });
      found = result.hits[0]?.snippet ?? "";
    },
  });
  assert.equal(run.failures, 0);
  const notices = run.events.filter((e) =>
    e.type === "notice" && e.message.includes("moved out of the context")
  );
  assert.ok(notices.length >= 1 && notices.length <= 2, `${notices.length} cuts`);
  const last = run.requests.at(-1)!;
  const digests = last.json.messages.filter((m: ChatMessage) => isDigest(m)).map((m: ChatMessage) =>
    String(m.content)
  );
  const moved = digests.flatMap((d: string) => [...d.matchAll(/^\[(\d+) earlier statement\(s\) moved out/gm)])
    .reduce((sum: number, match: RegExpMatchArray) => sum + Number(match[1]), 0);
  const present = facts.filter((fact) => last.body.includes(fact));
  assert.ok(moved > 0);
  assert.equal(present.length + moved, facts.length, "every fact is pinned or counted as moved");
  assert.deepEqual(present, facts.slice(moved), "the oldest moved, the newest stay, verbatim and in order");
  assert.match(found, /Service 1 listens on port 7000/, "the history tool's search finds a moved statement");
});
