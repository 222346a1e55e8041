import assert from "node:assert/strict";
import { ofType, served, SseReader } from "./_support.ts";
import type { ScriptedReply } from "../../support/deepseek_sim.ts";

function submit(summary: string): ScriptedReply {
  const args = { summary, steps: [{ content: "Write x.txt" }] };
  const call = { action: "call", capability_id: "tool:submit_plan", arguments: args };
  return { toolCalls: [{ name: "use_capability", arguments: JSON.stringify(call) }] };
}

Deno.test("serve app: a plan is answered over HTTP bound to its revision; a stale revision gets 409", async () => {
  const s = await served({
    script: [submit("First"), submit("Second"), { content: "ok" }],
    permissionMode: "plan",
  });
  try {
    const created = await (await s.call("/api/sessions", { method: "POST", json: {} })).json();
    const id = created.id as string;
    const stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "plan" } });
    await stream.until((f) => f.data?.type === "plan_proposed" && f.data.plan.revision === 1);
    const pending = await (await s.call(`/api/sessions/${id}/pending`)).json();
    assert.equal(pending.plan.summary, "First");
    const empty = await s.call(`/api/sessions/${id}/plans/1`, {
      method: "POST",
      json: { decision: "revise" },
    });
    assert.equal(empty.status, 400);
    const revise = await s.call(`/api/sessions/${id}/plans/1`, {
      method: "POST",
      json: { decision: "revise", feedback: "smaller" },
    });
    assert.equal(revise.status, 200);
    await stream.until((f) => f.data?.type === "plan_proposed" && f.data.plan.revision === 2);
    const stale = await s.call(`/api/sessions/${id}/plans/1`, {
      method: "POST",
      json: { decision: "approve" },
    });
    assert.equal(stale.status, 409);
    assert.equal((await stale.json()).code, "plan.stale");
    const approve = await s.call(`/api/sessions/${id}/plans/2`, {
      method: "POST",
      json: { decision: "approve" },
    });
    assert.equal(approve.status, 200);
    assert.equal((await stream.until(ofType("turn_done"))).data.subtype, "success");
    const status = await (await s.call(`/api/sessions/${id}/status`)).json();
    assert.equal(status.mode, "ask");
    await stream.close();
  } finally {
    await s.close();
  }
});
