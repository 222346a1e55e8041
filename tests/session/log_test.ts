/**
 * The session log's numbering (src/session/log.ts): concurrent appends keep call order, and a record's
 * seq is found by type even after another writer (a background subagent's spend) appended behind it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SessionLog } from "../../src/session/log.ts";
import { loadSession, SessionStore } from "../../src/session/store.ts";

const AT = "2025-01-02T03:04:05.000Z";

Deno.test("SessionLog.lastSeqOf() names a type's newest record when another append landed after it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reasonix_log_" });
  try {
    const store = await SessionStore.create(join(dir, "sessions"), {
      workspace: join(dir, "ws"),
      model: "deepseek-chat",
      provider: "deepseek",
      now: new Date(AT),
    });
    const log = new SessionLog(store, (await loadSession(store.file)).records);
    assert.equal(log.lastSeqOf("message"), 0);
    const [reply, spend] = await Promise.all([
      log.append({ type: "message", message: { role: "assistant", content: "done" } }),
      log.append({ type: "event", name: "subagent_usage", data: {}, at: AT }),
    ]);
    assert.equal(log.lastSeq, spend![0]!.seq);
    assert.equal(log.lastSeqOf("message"), reply![0]!.seq);
    assert.ok(reply![0]!.seq < spend![0]!.seq);
    store.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
