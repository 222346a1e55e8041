import assert from "node:assert/strict";
import { join } from "node:path";
import { latestWithTurns, listWorkspaceSessions } from "../../src/session/listing.ts";
import { workspaceDir } from "../../src/session/resume.ts";
import { type SessionRecord, SessionStore } from "../../src/session/store.ts";

const AT = "2025-01-02T03:04:05.000Z";

async function session(dir: string, ws: string, turns: string[], extra: SessionRecord[] = []) {
  const store = await SessionStore.create(dir, {
    workspace: ws,
    model: "m1",
    provider: "p",
    now: new Date(AT),
  });
  await store.appendMany([
    { type: "message", message: { role: "system", content: "s" } },
    { type: "message", message: { role: "user", content: "context" } },
    ...turns.map((content) => ({ type: "message" as const, message: { role: "user" as const, content } })),
    ...extra,
  ]);
  store.close();
  return store;
}

const USAGE: SessionRecord = {
  type: "usage",
  usage: { promptTokens: 1, completionTokens: 1, cacheHitTokens: 0, cacheMissTokens: 1, reasoningTokens: 0 },
  model: "m2",
  cost: 0.5,
  currency: "CNY",
  at: AT,
};

Deno.test("listWorkspaceSessions() summarises turns, title, model and cost, and caches by file size", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const ws = join(dir, "ws");
    const a = await session(dir, ws, ["fix it"], [USAGE, USAGE, {
      type: "event",
      name: "title",
      data: { title: "T" },
      at: AT,
    }]);
    const [listed] = await listWorkspaceSessions(dir, ws);
    assert.equal(listed?.id, a.id);
    assert.deepEqual(
      { turns: listed?.turns, title: listed?.title, lastModel: listed?.lastModel, cost: listed?.cost },
      { turns: 1, title: "T", lastModel: "m2", cost: 1 },
    );
    const index = join(workspaceDir(dir, ws), "index.json");
    const cached = JSON.parse(await Deno.readTextFile(index));
    cached.sessions[a.id].title = "from the cache";
    await Deno.writeTextFile(index, JSON.stringify(cached));
    assert.equal((await listWorkspaceSessions(dir, ws))[0]?.title, "from the cache");
    const { store } = await SessionStore.open(a.file);
    await store.append({ type: "message", message: { role: "user", content: "more" } });
    store.close();
    const [grown] = await listWorkspaceSessions(dir, ws);
    assert.deepEqual([grown?.title, grown?.turns], ["T", 2]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("latestWithTurns() skips sessions that hold no user turn", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const ws = join(dir, "ws");
    const real = await session(dir, ws, ["hello"]);
    await new Promise((r) => setTimeout(r, 20));
    await session(dir, ws, []);
    assert.equal(await latestWithTurns(dir, ws), real.file);
    assert.equal(await latestWithTurns(dir, join(dir, "other")), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
