import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ReasonixError } from "../../src/lib/errors.ts";
import type { ChatMessage } from "../../src/provider/provider.ts";
import { loadSession, newSessionId, type SessionRecord, SessionStore } from "../../src/session/store.ts";

const STORE_URL = new URL("../../src/session/store.ts", import.meta.url).href;
const AT = "2025-01-02T03:04:05.000Z";

const MESSAGES: ChatMessage[] = [
  { role: "system", content: "You are Reasonix.\nBe brief." },
  { role: "user", content: 'héllo \u2028 "quoted" \\ 你好 🎉' },
  {
    role: "assistant",
    content: null,
    reasoning_content: "think",
    tool_calls: [{
      id: "call_1",
      type: "function",
      function: { name: "read_file", arguments: '{"path":"a.ts"}' },
    }],
  },
  { role: "tool", content: "1→const a = 1;", tool_call_id: "call_1", name: "read_file" },
  // Unusual key order must survive: replay is compared byte for byte.
  { content: "done", role: "assistant" } as ChatMessage,
];

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_store_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function newStore(dir: string): Promise<SessionStore> {
  return await SessionStore.create(join(dir, "sessions"), {
    workspace: join(dir, "ws"),
    model: "deepseek-chat",
    provider: "deepseek",
    now: new Date(AT),
  });
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<ReasonixError> {
  const error = await promise.then(() => undefined, (error: unknown) => error);
  assert.ok(error instanceof ReasonixError, `expected a ReasonixError, got ${error}`);
  assert.equal(error.code, code);
  return error;
}

Deno.test("newSessionId() is a UTC timestamp plus 8 random hex digits", () => {
  const now = new Date("2025-07-08T09:10:11.123Z");
  const id = newSessionId(now);
  assert.match(id, /^20250708-091011-[0-9a-f]{8}$/);
  assert.notEqual(newSessionId(now), id);
});

Deno.test("SessionStore.create() writes the header to a private file", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    store.close();
    assert.equal((await Deno.stat(store.file)).mode! & 0o777, 0o600);
    assert.equal((await Deno.stat(dirname(store.file))).mode! & 0o777, 0o700);
    assert.equal(store.file, join(dirname(store.file), `${store.id}.jsonl`));
    const text = await Deno.readTextFile(store.file);
    assert.equal(
      text,
      JSON.stringify({
        type: "session",
        v: 1,
        id: store.id,
        workspace: join(dir, "ws"),
        createdAt: AT,
        model: "deepseek-chat",
        provider: "deepseek",
      }) + "\n",
    );
  }));

Deno.test("loadSession() replays messages byte-identical", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    const usage: SessionRecord = {
      type: "usage",
      usage: {
        promptTokens: 10,
        completionTokens: 2,
        cacheHitTokens: 8,
        cacheMissTokens: 2,
        reasoningTokens: 1,
      },
      model: "deepseek-chat",
      cost: null,
      currency: null,
      at: AT,
    };
    const [first, ...rest] = MESSAGES;
    await store.append({ type: "message", message: first! });
    await store.appendMany([...rest.map((message) => ({ type: "message" as const, message })), usage]);
    await store.append({ type: "event", name: "turn.done", data: { ok: true }, at: AT });
    store.close();
    const session = await loadSession(store.file);
    assert.deepEqual(session.messages.map((m) => JSON.stringify(m)), MESSAGES.map((m) => JSON.stringify(m)));
    assert.equal(session.records.length, 1 + MESSAGES.length + 2);
    assert.deepEqual(session.records.at(-2), usage);
    assert.equal(session.header.id, store.id);
    assert.equal(session.tornTail, false);
  }));

Deno.test("SessionStore.appendMany() keeps call order for concurrent appends", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    const names = Array.from({ length: 20 }, (_, n) => `e${n}`);
    await Promise.all(names.map((name) => store.append({ type: "event", name, at: AT })));
    store.close();
    const { records } = await loadSession(store.file);
    assert.deepEqual(records.slice(1).map((r) => r.type === "event" ? r.name : r.type), names);
  }));

Deno.test("SessionStore.append() rejects once the store is closed", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    store.close();
    await rejectsWithCode(store.append({ type: "event", name: "late", at: AT }), "session.closed");
  }));

Deno.test("loadSession() ignores a torn last line and SessionStore.open() cuts it off", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    await store.append({ type: "message", message: MESSAGES[1]! });
    store.close();
    const whole = await Deno.readTextFile(store.file);
    await Deno.writeTextFile(store.file, '{"type":"message","message":{"role":"us', { append: true });

    const torn = await loadSession(store.file);
    assert.equal(torn.tornTail, true);
    assert.deepEqual(torn.messages, [MESSAGES[1]]);

    const { store: reopened, session } = await SessionStore.open(store.file);
    assert.equal(session.tornTail, true);
    assert.equal(reopened.id, store.id);
    await reopened.append({ type: "message", message: MESSAGES[4]! });
    reopened.close();
    const line = JSON.stringify({ type: "message", message: MESSAGES[4] }) + "\n";
    assert.equal(await Deno.readTextFile(store.file), whole + line);
    const repaired = await loadSession(store.file);
    assert.equal(repaired.tornTail, false);
    assert.deepEqual(repaired.messages, [MESSAGES[1], MESSAGES[4]]);
  }));

Deno.test("SessionStore.open() ends a complete last line that lacks its newline", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    store.close();
    const header = await Deno.readTextFile(store.file);
    await Deno.writeTextFile(store.file, header.trimEnd());
    const { store: reopened, session } = await SessionStore.open(store.file);
    assert.equal(session.tornTail, false);
    await reopened.append({ type: "event", name: "after", at: AT });
    reopened.close();
    const { records } = await loadSession(store.file);
    assert.deepEqual(records.map((r) => r.type), ["session", "event"]);
  }));

Deno.test("loadSession() names the file and line of a corrupt middle line", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    await store.append({ type: "message", message: MESSAGES[1]! });
    store.close();
    const good = JSON.stringify({ type: "event", name: "x", at: AT });
    await Deno.writeTextFile(store.file, `{not json\n${good}\n`, { append: true });
    const error = await rejectsWithCode(loadSession(store.file), "session.corrupt");
    assert.equal(error.message, `Cannot load session "${store.file}": line 3 is not a valid session record`);
  }));

Deno.test("loadSession() rejects a file without a session header", () =>
  withTempDir(async (dir) => {
    const file = join(dir, "x.jsonl");
    await Deno.writeTextFile(file, JSON.stringify({ type: "event", name: "x", at: AT }) + "\n");
    const error = await rejectsWithCode(loadSession(file), "session.corrupt");
    assert.match(error.message, /line 1 is not a session header$/);
    await rejectsWithCode(loadSession(join(dir, "missing.jsonl")), "session.not_found");
  }));

const CHILD_SCRIPT = `
import { SessionStore } from ${JSON.stringify(STORE_URL)};
const { store } = await SessionStore.open(Deno.args[0]);
const encoder = new TextEncoder();
for (let n = 0; ; n++) {
  const data = { n, pad: "x".repeat((n * 37) % 3000) };
  await store.append({ type: "event", name: "tick", data, at: new Date().toISOString() });
  await Deno.stdout.write(encoder.encode(n + "\\n"));
}
`;

async function readAcks(stream: ReadableStream<Uint8Array>, wanted: number): Promise<number> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  try {
    while (text.split("\n").length - 1 < wanted) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
  } finally {
    await reader.cancel();
  }
  return text.split("\n").length - 1;
}

Deno.test("SessionStore.append() keeps every acknowledged line when the writer is killed", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    store.close();
    const script = join(dir, "writer.ts");
    await Deno.writeTextFile(script, CHILD_SCRIPT);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--no-config", "--allow-read", "--allow-write", script, store.file],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    let acked: number;
    try {
      acked = await readAcks(child.stdout, 150);
    } finally {
      child.kill("SIGKILL");
    }
    const status = await child.status;
    assert.equal(status.success, false);
    // Acks arrive in chunks, so more than asked for may have been read before the kill.
    assert.ok(acked >= 150, `only ${acked} acks before the kill`);

    const session = await loadSession(store.file);
    const ticks = session.records.slice(1).map((r) => r.type === "event" ? (r.data as { n: number }).n : -1);
    assert.ok(ticks.length >= acked, `only ${ticks.length} of ${acked} acknowledged records survived`);
    assert.deepEqual(ticks, Array.from({ length: ticks.length }, (_, n) => n));

    const { store: reopened } = await SessionStore.open(store.file);
    await reopened.append({ type: "event", name: "resumed", at: AT });
    reopened.close();
    const resumed = await loadSession(store.file);
    assert.equal(resumed.tornTail, false);
    assert.equal(resumed.records.length, ticks.length + 2);
  }));

Deno.test("SessionStore.prepare() writes nothing until the first user message, then everything in order", () =>
  withTempDir(async (dir) => {
    const store = SessionStore.prepare(join(dir, "sessions"), {
      workspace: join(dir, "ws"),
      model: "m",
      provider: "p",
      now: new Date(AT),
    });
    await store.stage([{ type: "message", message: { role: "system", content: "s" } }]);
    await store.stage([{ type: "message", message: { role: "user", content: "context" } }]);
    await store.append({ type: "event", name: "tools", at: AT });
    assert.equal(store.written, false);
    await assert.rejects(Deno.stat(store.file), Deno.errors.NotFound);
    await store.append({ type: "message", message: { role: "user", content: "hello" } });
    assert.equal(store.written, true);
    await store.append({ type: "message", message: { role: "assistant", content: "hi" } });
    store.close();
    const session = await loadSession(store.file);
    assert.equal(session.header.id, store.id);
    assert.equal(session.header.createdAt, AT);
    assert.deepEqual(session.records.map((r) => r.type === "message" ? r.message.content : r.type), [
      "session",
      "s",
      "context",
      "event",
      "hello",
      "hi",
    ]);
  }));

Deno.test("SessionStore.prepare() that is closed before a user turn leaves no file", () =>
  withTempDir(async (dir) => {
    const store = SessionStore.prepare(join(dir, "sessions"), { workspace: dir, model: "m", provider: "p" });
    await store.stage([{ type: "message", message: { role: "system", content: "s" } }]);
    store.close();
    await assert.rejects(Deno.stat(join(dir, "sessions")), Deno.errors.NotFound);
  }));

Deno.test("SessionStore.open() closes a turn that a killed process left with unanswered calls", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    await store.appendMany(MESSAGES.slice(0, 3).map((message) => ({ type: "message" as const, message })));
    store.close();
    const { store: reopened, session } = await SessionStore.open(store.file);
    reopened.close();
    const roles = session.messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user", "assistant", "tool", "assistant"]);
    assert.match(String(session.messages[3]!.content), /^\[no result: the previous turn was interrupted\]$/);
    assert.deepEqual(session.messages[4], {
      role: "assistant",
      content: "[This turn ended without a reply: the process running it stopped]",
      reasoning_content: "",
    });
    const stored = await loadSession(store.file);
    assert.deepEqual(stored.messages, session.messages);
    assert.equal(stored.records.at(-1)?.type, "event");
  }));

const LOCK_HOLDER = `
import { SessionStore } from ${JSON.stringify(STORE_URL)};
const { store } = await SessionStore.open(Deno.args[0]);
console.log("open");
setInterval(() => {}, 1000);
`;

Deno.test("SessionStore.open() refuses a session another live process has open, and recovers after a kill", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    store.close();
    const script = join(dir, "holder.ts");
    await Deno.writeTextFile(script, LOCK_HOLDER);
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--no-config", "-A", script, store.file],
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    try {
      await readAcks(child.stdout, 1);
      const error = await rejectsWithCode(SessionStore.open(store.file), "session.locked");
      assert.match(error.message, new RegExp(`in use by process ${child.pid}\\b.*\\(started at \\d{4}-`));
    } finally {
      child.kill("SIGKILL");
      await child.status;
    }
    const { store: reopened } = await SessionStore.open(store.file);
    await reopened.append({ type: "event", name: "after", at: AT });
    reopened.close();
    assert.equal((await loadSession(store.file)).records.at(-1)?.type, "event");
  }));

Deno.test("SessionStore.open() twice in one process shares the lock until both close", () =>
  withTempDir(async (dir) => {
    const store = await newStore(dir);
    store.close();
    const first = await SessionStore.open(store.file);
    const second = await SessionStore.open(store.file);
    first.store.close();
    await second.store.append({ type: "event", name: "still", at: AT });
    second.store.close();
    await assert.rejects(Deno.stat(store.file.replace(/\.jsonl$/, ".lock")), Deno.errors.NotFound);
  }));
