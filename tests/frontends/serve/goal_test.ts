/**
 * Goal mode over serve: `/goal <objective>` starts like a turn (202) and its `goal_updated` events stream;
 * `/goal status` answers at once while the goal runs, and plain text is refused as busy until it ends.
 */
import assert from "node:assert/strict";
import { ofType, served, SseReader } from "./_support.ts";
import type { Responder } from "../../support/deepseek_sim.ts";
import { goalModel } from "../../support/goal_model.ts";

Deno.test("serve app: /goal starts like a turn; its events stream; /goal status answers while it runs", async () => {
  const model = goalModel((turn) => turn < 3 ? "write" : "complete");
  const slow: Responder = (request, index) => ({
    ...model(request, index),
    fault: { kind: "slow_first_byte", delayMs: 150 },
  });
  const s = await served({ script: slow, permissionMode: "yolo" });
  try {
    const created = await (await s.call("/api/sessions", { method: "POST", json: {} })).json();
    const id = created.id as string;
    const stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    const started = await s.call(`/api/sessions/${id}/input`, {
      method: "POST",
      json: { text: "/goal Add three notes files" },
    });
    assert.equal(started.status, 202);
    await started.body?.cancel();
    await stream.until((f) => f.data?.type === "goal_updated" && f.data.goal.turns === 1);
    const status = await s.call(`/api/sessions/${id}/input`, {
      method: "POST",
      json: { text: "/goal status" },
    });
    assert.equal(status.status, 200);
    assert.match((await status.json()).output[0], /^runtime: turns [12]\/20, tokens \d+, no-progress 0\/4/m);
    const text = await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "hello" } });
    assert.equal(text.status, 409);
    await text.body?.cancel();
    const done = await stream.until((f) =>
      f.data?.type === "goal_updated" && f.data.goal.status === "complete"
    );
    assert.equal(done.data.goal.turns, 3);
    await stream.close();
  } finally {
    await s.close();
  }
});
