/**
 * The serve API end to end through `app.request()`: a real Controller per session against the
 * DeepSeek simulator, every route, the event stream and its replay.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ofType, served, SseReader } from "./_support.ts";
import type { OPENAPI } from "../../../src/frontends/serve/openapi.ts";
import type { ScriptedReply } from "../../support/deepseek_sim.ts";

const WRITE: ScriptedReply = {
  toolCalls: [{ name: "write_file", arguments: `{"path":"x.txt","content":"hi\\n"}` }],
};
const QUESTION = {
  header: "Indent",
  question: "Tabs or spaces?",
  options: [{ label: "Tabs" }, { label: "Spaces" }],
};
const ASK: ScriptedReply = {
  toolCalls: [{ name: "ask", arguments: JSON.stringify({ questions: [QUESTION] }) }],
};

async function created(call: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>) {
  const response = await call("/api/sessions", { method: "POST", json: {} });
  assert.equal(response.status, 201);
  return await response.json() as { id: string; model: string; mode: string };
}

Deno.test("serve app: every route the app answers is in /api/openapi.json", async () => {
  const s = await served();
  try {
    const response = await s.call("/api/openapi.json");
    assert.equal(response.status, 200);
    const described = await response.json() as typeof OPENAPI;
    const paths = described.paths as Record<string, Record<string, unknown>>;
    const routes = s.app.routes.filter((r) => r.path.startsWith("/api/") && r.method !== "ALL");
    assert.ok(routes.length > 20);
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, "{$1}");
      if (path === "/api/openapi.json") continue;
      assert.ok(paths[path]?.[route.method.toLowerCase()], `${route.method} ${path} is not described`);
    }
  } finally {
    await s.close();
  }
});

Deno.test("serve app: a session is created, streams a turn, is listed, renamed and deleted", async () => {
  const s = await served({ script: [{ reasoning: "hm", content: "hello **there**" }] });
  try {
    const session = await created(s.call);
    assert.equal(session.model, "deepseek-flash");
    const stream = new SseReader(await s.call(`/api/sessions/${session.id}/events`));
    const ready = await stream.until(ofType("ready"));
    assert.ok(stream.frames.some((f) => f.data.type === "session_started"));
    const started = await s.call(`/api/sessions/${session.id}/input`, {
      method: "POST",
      json: { text: "hi" },
    });
    assert.equal(started.status, 202);
    const done = await stream.until(ofType("turn_done"));
    assert.equal(done.data.subtype, "success");
    const live = stream.frames.slice(stream.frames.indexOf(ready) + 1);
    assert.ok(live.every((f) => f.id !== undefined), "every live frame has an id");
    const message = live.find((f) => f.data.type === "message" && f.data.message.role === "assistant");
    assert.equal(message?.id, String(message?.data.seq), "a record's frame id is its seq");
    assert.ok(live.some((f) => /^\d+\.\d+$/.test(f.id!)), "events without a seq get sub-ids");
    await stream.close();

    const listed = await (await s.call("/api/sessions")).json();
    assert.deepEqual(listed.sessions.map((x: { id: string }) => x.id), [session.id]);
    const renamed = await s.call(`/api/sessions/${session.id}`, {
      method: "PATCH",
      json: { title: "greeting" },
    });
    assert.equal(renamed.status, 200);
    const one = await (await s.call(`/api/sessions/${session.id}`)).json();
    assert.equal(one.open, true);
    await s.hub.close(session.id);
    const stored = await (await s.call(`/api/sessions/${session.id}`)).json();
    assert.deepEqual([stored.open, stored.title, stored.turns], [false, "greeting", 1]);
    assert.equal((await s.call(`/api/sessions/${session.id}`, { method: "DELETE" })).status, 204);
    assert.equal((await s.call(`/api/sessions/${session.id}`)).status, 404);
    assert.deepEqual((await (await s.call("/api/sessions")).json()).sessions, []);
  } finally {
    await s.close();
  }
});

Deno.test("serve app: slash commands go through submit and answer in the response", async () => {
  const s = await served();
  try {
    const { id } = await created(s.call);
    const help =
      await (await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "/help" } })).json();
    assert.equal(help.kind, "command");
    assert.match(help.output.join("\n"), /\/reload/);
    const unknown =
      await (await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "/frobnicate" } }))
        .json();
    assert.equal(unknown.kind, "unknown");
    assert.equal(s.sim.requests.length, 0, "no command reached the model");
  } finally {
    await s.close();
  }
});

Deno.test("serve app: an approval is answered over HTTP and the write runs", async () => {
  const s = await served({ script: [WRITE, { content: "written" }] });
  try {
    const { id } = await created(s.call);
    const stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "write x.txt" } });
    const asked = await stream.until(ofType("approval_requested"));
    const pending = await (await s.call(`/api/sessions/${id}/pending`)).json();
    assert.deepEqual(pending.approvals.map((a: { id: string }) => a.id), [asked.data.request.id]);
    const wrong = await s.call(`/api/sessions/${id}/approvals/approval-99`, {
      method: "POST",
      json: { choice: "allow_once" },
    });
    assert.equal(wrong.status, 404);
    const bad = await s.call(`/api/sessions/${id}/approvals/${asked.data.request.id}`, {
      method: "POST",
      json: { choice: "sure" },
    });
    assert.equal(bad.status, 400);
    const ok = await s.call(`/api/sessions/${id}/approvals/${asked.data.request.id}`, {
      method: "POST",
      json: { choice: "allow_once" },
    });
    assert.equal(ok.status, 200);
    assert.equal((await stream.until(ofType("turn_done"))).data.subtype, "success");
    assert.equal(await Deno.readTextFile(join(s.workspace, "x.txt")), "hi\n");
    await stream.close();

    const checkpoints = await (await s.call(`/api/sessions/${id}/checkpoints`)).json();
    assert.deepEqual(checkpoints.turns.map((t: { files: string[] }) => t.files), [["x.txt"]]);
    const rewound = await s.call(`/api/sessions/${id}/rewind`, {
      method: "POST",
      json: { turn: 1, scope: "code" },
    });
    assert.equal(rewound.status, 200);
    assert.equal((await rewound.json()).status, "done");
    await assert.rejects(Deno.stat(join(s.workspace, "x.txt")), Deno.errors.NotFound);
  } finally {
    await s.close();
  }
});

Deno.test("serve app: a question is answered over HTTP and the answer reaches the model", async () => {
  const s = await served({ script: [ASK, { content: "tabs it is" }] });
  try {
    const { id } = await created(s.call);
    const stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "ask me" } });
    const asked = await stream.until(ofType("question_asked"));
    const misfit = await s.call(`/api/sessions/${id}/questions/${asked.data.id}`, {
      method: "POST",
      json: { answers: [{ labels: ["Neither"] }] },
    });
    assert.equal(misfit.status, 404);
    const ok = await s.call(`/api/sessions/${id}/questions/${asked.data.id}`, {
      method: "POST",
      json: { answers: [{ labels: ["Tabs"] }] },
    });
    assert.equal(ok.status, 200);
    await stream.until(ofType("turn_done"));
    assert.match(s.sim.requests.at(-1)!.body, /Tabs/);
    await stream.close();
  } finally {
    await s.close();
  }
});

Deno.test("serve app: cancel stops a running turn; input and /reload are refused (409) while it runs", async () => {
  const s = await served({ script: [{ fault: { kind: "hang" } }] });
  try {
    const { id } = await created(s.call);
    const stream = new SseReader(await s.call(`/api/sessions/${id}/events`));
    await stream.until(ofType("ready"));
    await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "think forever" } });
    await stream.until(ofType("turn_started"));
    const again = await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "and this" } });
    assert.equal(again.status, 409);
    assert.equal((await again.json()).code, "session.busy");
    const reload = await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "/reload" } });
    assert.equal(reload.status, 409);
    assert.equal((await s.call(`/api/sessions/${id}/status`).then((r) => r.json())).busy, true);
    assert.equal((await s.call(`/api/sessions/${id}/cancel`, { method: "POST" })).status, 200);
    const done = await stream.until(ofType("turn_done"));
    assert.equal(done.data.subtype, "error_during_execution");
    const reloaded = await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "/reload" } });
    assert.equal(reloaded.status, 200);
    await stream.close();
  } finally {
    await s.close();
  }
});

Deno.test("serve app: model, effort and mode are read and set; status and usage answer", async () => {
  const s = await served();
  try {
    const { id } = await created(s.call);
    const models = await (await s.call(`/api/sessions/${id}/models`)).json();
    assert.equal(models.current, "deepseek-flash");
    assert.ok(models.models.length >= 1);
    const effort = await s.call(`/api/sessions/${id}/effort`, { method: "PUT", json: { effort: "high" } });
    assert.equal((await effort.json()).effort, "high");
    const badEffort = await s.call(`/api/sessions/${id}/effort`, { method: "PUT", json: { effort: "huge" } });
    assert.equal(badEffort.status, 400);
    const mode = await s.call(`/api/sessions/${id}/mode`, { method: "PUT", json: { mode: "yolo" } });
    assert.equal((await mode.json()).mode, "yolo");
    const model = await s.call(`/api/sessions/${id}/model`, {
      method: "PUT",
      json: { model: models.models[0].ref },
    });
    assert.equal(model.status, 200);
    // A session without a turn is not on disk: switching its model starts it again, under a new id.
    const switched = (await model.json()).id;
    assert.notEqual(switched, id);
    assert.deepEqual(s.hub.ids(), [switched]);
    const status = await (await s.call(`/api/sessions/${switched}/status`)).json();
    assert.deepEqual([status.effort, status.mode, status.busy], ["high", "yolo", false]);
    const usage = await (await s.call(`/api/sessions/${switched}/usage`)).json();
    assert.equal(usage.modelCalls, 0);
  } finally {
    await s.close();
  }
});

Deno.test("serve app: unknown sessions, routes and bodies are refused with a code", async () => {
  const s = await served();
  try {
    const missing = await s.call("/api/sessions/nope/status");
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, "session.not_found");
    assert.equal((await s.call("/api/nothing")).status, 404);
    const { id } = await created(s.call);
    const bad = await s.call(`/api/sessions/${id}/input`, {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    assert.equal((await bad.json()).code, "request.bad_json");
    const extra = await s.call(`/api/sessions/${id}/input`, { method: "POST", json: { text: "x", more: 1 } });
    assert.equal((await extra.json()).code, "request.bad_body");
  } finally {
    await s.close();
  }
});

Deno.test("serve app: / serves the embedded web UI once logged in, a login page before", async () => {
  const s = await served({ auth: { mode: "password", passwordHash: "$2b$04$" + "a".repeat(53) } });
  try {
    const login = await (await s.call("/", { headers: { authorization: "" } })).text();
    assert.match(login, /type="password"/);
    assert.doesNotMatch(login, /ui\/app\.js/);
    const script = await s.call("/ui/app.js", { headers: { authorization: "" } });
    assert.match(script.headers.get("content-type")!, /javascript/);
    const code = await script.text();
    assert.match(code, /new EventSource/);
    assert.doesNotMatch(code, /https?:\/\//, "nothing is fetched from another host");
    assert.match((await s.call("/ui/style.css")).headers.get("content-type")!, /text\/css/);
    assert.match((await s.call("/")).headers.get("content-security-policy")!, /default-src 'self'/);
  } finally {
    await s.close();
  }
  const token = await served();
  try {
    const page = await (await token.call("/")).text();
    assert.match(page, /<script src="\/ui\/app\.js"><\/script>/);
    assert.match(page, /id="sessions"/);
  } finally {
    await token.close();
  }
});
