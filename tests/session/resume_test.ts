import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { ReasonixError } from "../../src/lib/errors.ts";
import { findSession, latestSession, listSessions, workspaceDir } from "../../src/session/resume.ts";
import { SessionStore } from "../../src/session/store.ts";

async function withTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_resume_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function createAt(sessionsDir: string, workspace: string, iso: string): Promise<SessionStore> {
  const store = await SessionStore.create(sessionsDir, {
    workspace,
    model: "deepseek-chat",
    provider: "deepseek",
    now: new Date(iso),
  });
  store.close();
  return store;
}

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<ReasonixError> {
  const error = await promise.then(() => undefined, (error: unknown) => error);
  assert.ok(error instanceof ReasonixError, `expected a ReasonixError, got ${error}`);
  assert.equal(error.code, code);
  return error;
}

Deno.test("workspaceDir() is a basename slug plus a hash of the absolute path", () => {
  const dir = workspaceDir("/state/sessions", "/home/me/My Project!");
  assert.match(dir, /^\/state\/sessions\/my-project-[0-9a-f]{12}$/);
  assert.equal(workspaceDir("/state/sessions", "/home/me/./My Project!/"), dir);
  assert.notEqual(workspaceDir("/state/sessions", "/other/My Project!"), dir);
  assert.match(basename(workspaceDir("/s", "/")), /^workspace-[0-9a-f]{12}$/);
});

Deno.test("latestSession() picks the newest session of each workspace", () =>
  withTempDir(async (dir) => {
    const sessions = join(dir, "sessions");
    const [wsA, wsB] = [join(dir, "a"), join(dir, "b")];
    const newestA = await createAt(sessions, wsA, "2025-03-01T00:00:00.000Z");
    await createAt(sessions, wsA, "2025-01-01T00:00:00.000Z");
    const newestB = await createAt(sessions, wsB, "2025-02-01T00:00:00.000Z");
    await createAt(sessions, wsB, "2024-12-01T00:00:00.000Z");
    assert.equal(await latestSession(sessions, wsA), newestA.file);
    assert.equal(await latestSession(sessions, wsB), newestB.file);
    assert.equal(await latestSession(sessions, join(dir, "c")), undefined);
  }));

Deno.test("listSessions() lists newest first and skips files without a readable header", () =>
  withTempDir(async (dir) => {
    const sessions = join(dir, "sessions");
    const ws = join(dir, "ws");
    const older = await createAt(sessions, ws, "2025-01-01T00:00:00.000Z");
    const newer = await createAt(sessions, ws, "2025-01-02T00:00:00.000Z");
    await Deno.writeTextFile(
      join(workspaceDir(sessions, ws), "20990101-000000-deadbeef.jsonl"),
      '{"type":"sess',
    );
    const list = await listSessions(sessions, ws);
    assert.deepEqual(list.map((s) => s.id), [newer.id, older.id]);
    assert.deepEqual(
      { ...list[0]!, modifiedAt: "", bytes: 0 },
      {
        id: newer.id,
        file: newer.file,
        workspace: ws,
        createdAt: "2025-01-02T00:00:00.000Z",
        model: "deepseek-chat",
        provider: "deepseek",
        modifiedAt: "",
        bytes: 0,
      },
    );
    assert.ok(list[0]!.bytes > 0);
  }));

Deno.test("findSession() resolves a path, a full id and a unique prefix", () =>
  withTempDir(async (dir) => {
    const sessions = join(dir, "sessions");
    const ws = join(dir, "ws");
    const jan = await createAt(sessions, ws, "2025-01-05T10:00:00.000Z");
    const feb = await createAt(sessions, ws, "2025-02-05T10:00:00.000Z");
    assert.equal(await findSession(sessions, ws, jan.id), jan.file);
    assert.equal(await findSession(sessions, ws, "202502"), feb.file);
    assert.equal(await findSession(sessions, ws, jan.file), jan.file);
    await Deno.mkdir(ws);
    await Deno.copyFile(feb.file, join(ws, "copy.jsonl"));
    assert.equal(await findSession(sessions, ws, "./copy.jsonl"), join(ws, "copy.jsonl"));
  }));

Deno.test("findSession() reports ambiguous and unknown ids", () =>
  withTempDir(async (dir) => {
    const sessions = join(dir, "sessions");
    const ws = join(dir, "ws");
    const a = await createAt(sessions, ws, "2025-01-05T10:00:00.000Z");
    const b = await createAt(sessions, ws, "2025-01-05T10:00:00.000Z");
    const ambiguous = await rejectsWithCode(findSession(sessions, ws, "20250105"), "session.ambiguous");
    const ids = [a.id, b.id].sort().map((id) => `"${id}"`).join(", ");
    assert.equal(ambiguous.message, `Cannot pick session "20250105": 2 sessions match (${ids})`);
    const unknown = await rejectsWithCode(findSession(sessions, ws, "1999"), "session.not_found");
    assert.equal(unknown.message, `Cannot find session "1999" for workspace "${ws}"`);
    await rejectsWithCode(findSession(sessions, join(dir, "other"), a.id), "session.not_found");
    await rejectsWithCode(findSession(sessions, ws, "./missing.jsonl"), "session.not_found");
    await rejectsWithCode(findSession(sessions, ws, " "), "session.not_found");
  }));
