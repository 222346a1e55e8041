/**
 * The recall test: 300 scripted turns through the simulator with an 8k-token window, so the context is
 * compacted several times; the 20 facts the user stated in the first turns are still in every request,
 * verbatim, to the end.
 */
import assert from "node:assert/strict";
import { RECALL_FACTS, runRecallSession } from "../support/recall_session.ts";

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
  const last = run.requests.at(-1)!;
  assert.ok(last.body.includes("Step 300: continue the refactor with module 300."));
  assert.equal(run.events.filter((e) => e.type === "warning").length, 0);
});
