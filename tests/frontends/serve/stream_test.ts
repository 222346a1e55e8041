/**
 * The event stream's edges: heartbeats are real frames with ids (replayed like any other), an id the
 * journal cannot serve falls back to the log, an idle session is closed, and an MCP call's progress is
 * streamed live but never replayed.
 */
import assert from "node:assert/strict";
import { ofType, served, SseReader } from "./_support.ts";
import { EVERYTHING } from "../../mcp/_servers.ts";
import { hostEnv } from "../../support/host_env.ts";

Deno.test("serve stream: heartbeats are real events with ids, replayed after a reconnect", async () => {
  const s = await served({ heartbeatMs: 40 });
  try {
    const { id } = await (await s.call("/api/sessions", { method: "POST", json: {} })).json();
    const stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    const ready = await stream.until(ofType("ready"));
    const first = await stream.until(ofType("heartbeat"));
    assert.match(first.id!, /^\d+\.\d+$/);
    let beats = 0;
    await stream.until((frame) => frame.data?.type === "heartbeat" && ++beats === 3);
    await stream.close();
    const replay = new SseReader(
      await s.call(`/api/sessions/${id}/events`, { headers: { "last-event-id": ready.id! } }),
    );
    await replay.until((frame) => frame.id === stream.frames.at(-1)!.id);
    const after = stream.frames.slice(stream.frames.indexOf(ready) + 1);
    assert.deepEqual(replay.frames.slice(0, after.length), after);
    await replay.close();
  } finally {
    await s.close();
  }
});

Deno.test("serve stream: an id older than the journal replays the log records after its seq", async () => {
  const s = await served({ script: [{ content: "first answer" }, { content: "second answer" }] });
  try {
    const { id } = await (await s.call("/api/sessions", { method: "POST", json: {} })).json();
    let stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "one" } });
    const started = await stream.until(ofType("turn_started"));
    await stream.until(ofType("turn_done"));
    await stream.close();
    // The server lets the session go (as after a restart): its journal is gone, its log is not.
    await s.hub.close(id);
    stream = new SseReader(
      await s.call(`/api/sessions/${id}/events`, { headers: { "last-event-id": started.id! } }),
    );
    const ready = await stream.until(ofType("ready"));
    const replayed = stream.frames.slice(0, stream.frames.indexOf(ready));
    assert.ok(replayed.every((frame) => frame.id === undefined), "log replay frames carry no journal id");
    assert.ok(
      replayed.every((frame) => frame.data.seq > started.data.seq),
      "only records after the id's seq",
    );
    assert.deepEqual(replayed.filter((f) => f.data.type === "turn_started"), []);
    assert.equal(replayed.find((f) => f.data.type === "text")?.data.text, "first answer");
    assert.ok(replayed.some((f) => f.data.type === "turn_done"));
    await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "two" } });
    assert.equal((await stream.until(ofType("turn_started"))).data.text, "two");
    await stream.until(ofType("turn_done"));
    await stream.close();
  } finally {
    await s.close();
  }
});

Deno.test("serve hub: a session nobody watches and that waits for nothing is closed when idle", async () => {
  const s = await served({ idleMs: 50 });
  try {
    const { id } = await (await s.call("/api/sessions", { method: "POST", json: {} })).json();
    const stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(s.hub.ids(), [id], "a watched session stays open");
    await stream.close();
    const deadline = Date.now() + 5000;
    while (s.hub.ids().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.deepEqual(s.hub.ids(), []);
  } finally {
    await s.close();
  }
});

Deno.test("serve stream: a client that stops reading is let go after 5000 queued frames, then replayed", async () => {
  const s = await served();
  try {
    const { id } = await (await s.call("/api/sessions", { method: "POST", json: {} })).json();
    const response = await s.call(`/api/sessions/${id}/events`);
    const session = s.hub.get(id)!;
    assert.equal(session.streams.size, 1);
    const lastSeq = session.controller.lastSeq;
    for (let i = 0; i < 4999; i++) session.journal.push({ type: "heartbeat", at: String(i) }, lastSeq);
    assert.equal(session.streams.size, 1, "a backlog within the limit keeps the stream");
    for (let i = 0; i < 10; i++) session.journal.push({ type: "heartbeat", at: "x" }, lastSeq);
    assert.equal(session.streams.size, 0, "past the limit the stream ends");
    const text = await response.text();
    const ids = [...text.matchAll(/^id: (\S+)$/gm)].map((m) => m[1]!);
    const last = ids.at(-1)!;
    const replay = new SseReader(
      await s.call(`/api/sessions/${id}/events`, { headers: { "last-event-id": last } }),
    );
    await replay.until((frame) => frame.id === session.journal.lastId);
    assert.equal(ids.length + replay.frames.length, 5009 + 1, "every frame once: the ready frame, then 5009");
    await replay.close();
  } finally {
    await s.close();
  }
});

Deno.test("serve stream: an MCP call's progress is sent live as tool_progress frames, never replayed from the log", async () => {
  const args = ["run", "-A", "--no-lock", "--quiet", EVERYTHING, "stdio"];
  const extraToml = `[[plugins]]\nname = "everything"\ncommand = ${JSON.stringify(Deno.execPath())}\n` +
    `args = ${JSON.stringify(args)}\nstartup_timeout_seconds = 120\n`;
  const env = hostEnv();
  const tool = "mcp__everything__trigger-long-running-operation";
  const s = await served({
    script: [{ toolCalls: [{ name: tool, arguments: `{"duration":1.2,"steps":4}` }] }, { content: "done" }],
    permissionMode: "yolo",
    extraToml,
    env,
  });
  try {
    const { id } = await (await s.call("/api/sessions", { method: "POST", json: {} })).json();
    let stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "run it" } });
    const started = await stream.until(ofType("turn_started"));
    const progress = await stream.until(ofType("tool_progress"), 120_000);
    assert.equal(progress.data.name, tool);
    assert.equal(progress.data.total, 4);
    assert.match(progress.id!, /^\d+\.\d+$/, "a live frame after the newest seq");
    await stream.until(ofType("turn_done"), 60_000);
    await stream.close();
    await s.hub.close(id);
    stream = new SseReader(
      await s.call(`/api/sessions/${id}/events`, { headers: { "last-event-id": started.id! } }),
    );
    const ready = await stream.until(ofType("ready"));
    const replayed = stream.frames.slice(0, stream.frames.indexOf(ready));
    assert.ok(replayed.some((frame) => frame.data.type === "tool_result"));
    assert.ok(!replayed.some((frame) => frame.data.type === "tool_progress"));
    await stream.close();
  } finally {
    await s.close();
  }
});
