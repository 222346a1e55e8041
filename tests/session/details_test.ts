import assert from "node:assert/strict";
import { sessionDetails, TITLE_EVENT } from "../../src/session/details.ts";
import type { SessionRecord } from "../../src/session/store.ts";

const AT = "2026-01-01T00:00:00.000Z";

Deno.test("sessionDetails() reads the last title, the first turn without notes, and counts turns", () => {
  const records: SessionRecord[] = [
    { type: "session", v: 1, id: "s", workspace: "/w", createdAt: AT, model: "m", provider: "p" },
    { type: "message", message: { role: "system", content: "S" } },
    { type: "message", message: { role: "user", content: "<session-context>" } },
    { type: "message", message: { role: "user", content: "first\n\n<turn-context>\nnote\n</turn-context>" } },
    { type: "event", name: TITLE_EVENT, data: { title: "Old" }, at: AT },
    { type: "message", message: { role: "assistant", content: "ok" } },
    { type: "message", message: { role: "user", content: "second" } },
    { type: "event", name: TITLE_EVENT, data: { title: "  New  " }, at: AT },
    { type: "event", name: TITLE_EVENT, data: { title: 7 }, at: AT },
  ];
  assert.deepEqual(sessionDetails(records), { title: "New", firstMessage: "first", turns: 2 });
  assert.deepEqual(sessionDetails(records.slice(0, 3)), { title: null, firstMessage: null, turns: 0 });
});

Deno.test("sessionDetails() shows a /skill turn as typed, without the skill body Reasonix pinned to it", () => {
  const pinned = `/lint src\n\n<skill-pin name="lint">\nRun \`deno lint\`.\n</skill-pin>\n\n` +
    `<turn-context>\nnote\n</turn-context>`;
  const records: SessionRecord[] = [
    { type: "session", v: 1, id: "s", workspace: "/w", createdAt: AT, model: "m", provider: "p" },
    { type: "message", message: { role: "user", content: "<session-context>" } },
    { type: "message", message: { role: "user", content: pinned } },
  ];
  assert.equal(sessionDetails(records).firstMessage, "/lint src");
});
