/**
 * Subagents seen from `serve`: their progress comes over the session's SSE stream, and the session
 * list names a child's parent.
 */
import assert from "node:assert/strict";
import { ofType, served, SseReader } from "./_support.ts";
import type { ScriptedReply } from "../../support/deepseek_sim.ts";

const TASK: ScriptedReply = {
  toolCalls: [{
    name: "use_capability",
    arguments: JSON.stringify({
      action: "call",
      capability_id: "tool:read_only_task",
      arguments: { prompt: "look around", description: "look" },
    }),
  }],
};

Deno.test("serve: a subagent's start and end reach the SSE stream; the session list names its parent", async () => {
  const script = [TASK, { content: "the child's answer" }, { content: "parent done" }];
  const s = await served({ script, permissionMode: "auto" });
  try {
    const session = await (await s.call("/api/sessions", { method: "POST", json: {} })).json() as {
      id: string;
    };
    const stream = new SseReader(await s.call(`/api/sessions/${session.id}/events`));
    await stream.until(ofType("ready"));
    await s.call(`/api/sessions/${session.id}/input`, { method: "POST", json: { text: "go" } });
    assert.equal((await stream.until(ofType("turn_done"))).data.subtype, "success");
    const frames = stream.frames.filter((f) => f.data.type === "subagent");
    const started = frames.find((f) => f.data.phase === "started")!;
    const done = frames.find((f) => f.data.phase === "done")!;
    assert.equal(started.data.parentId, session.id);
    assert.equal(started.data.description, "look");
    assert.deepEqual([done.data.sessionId, done.data.ok, done.data.preview], [
      started.data.sessionId,
      true,
      "the child's answer",
    ]);
    await stream.close();
    const listed = await (await s.call("/api/sessions")).json() as {
      sessions: { id: string; parent?: string }[];
    };
    const child = listed.sessions.find((x) => x.id === started.data.sessionId);
    assert.equal(child?.parent, session.id);
  } finally {
    await s.close();
  }
});
