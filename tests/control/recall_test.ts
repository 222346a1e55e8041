/**
 * The recall test: 300 scripted turns through the simulator with an 8k-token window, so the context is
 * compacted several times; the 20 facts the user stated in the first turns are still in every request,
 * verbatim, to the end.
 */
import assert from "node:assert/strict";
import { RECALL_FACTS, runRecallSession } from "../support/recall_session.ts";
import { isSummaryPrompt } from "../../src/agent/compaction.ts";

Deno.test("every fact the user stated survives repeated compactions verbatim", async () => {
  const run = await runRecallSession({ turns: 300, window: 8000 });
  assert.equal(run.failures, 0);
  assert.ok(run.compactionsBefore.length >= 5, `compacted ${run.compactionsBefore.length} times`);
  const firstCompaction = run.compactionsBefore[0]!;
  for (const request of run.requests.slice(firstCompaction)) {
    for (const fact of RECALL_FACTS) {
      assert.ok(request.body.includes(JSON.stringify(fact).slice(1, -1)), `request lacks: ${fact}`);
    }
  }
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
});
