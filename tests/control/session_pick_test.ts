import assert from "node:assert/strict";
import { listingText, pickSession, sessionLabel } from "../../src/control/session_pick.ts";
import type { DetailedSession } from "../../src/session/details.ts";

function session(id: string, extra: Partial<DetailedSession> = {}): DetailedSession {
  return {
    id,
    file: `/s/${id}.jsonl`,
    workspace: "/w",
    createdAt: "2026-01-01T00:00:00.000Z",
    model: "m",
    provider: "p",
    modifiedAt: "2026-01-01T00:00:00.000Z",
    bytes: 10,
    title: null,
    firstMessage: null,
    turns: 0,
    ...extra,
  };
}

const SESSIONS = [
  session("20260103-aaa", { title: "Lexer work", firstMessage: "fix the lexer", turns: 3 }),
  session("20260102-bbb", { firstMessage: "write the docs\nplease", turns: 1 }),
  session("20260101-ccc"),
];

Deno.test("pickSession() takes a listing number, an id or prefix, or text of the title or first message", () => {
  const id = (query: string) => {
    const pick = pickSession(SESSIONS, query);
    return pick.kind === "found" ? pick.session.id : pick.kind;
  };
  assert.equal(id("2"), "20260102-bbb");
  assert.equal(id("20260101-ccc"), "20260101-ccc");
  assert.equal(id("20260103"), "20260103-aaa");
  assert.equal(id("LEXER"), "20260103-aaa");
  assert.equal(id("docs"), "20260102-bbb");
  assert.equal(id("2026"), "ambiguous");
  assert.equal(id("9"), "none", "a number past the listing is not an index, and matches no text");
  assert.equal(id("nothing"), "none");
});

Deno.test("sessionLabel() prefers the title, flattens and shortens the first message", () => {
  assert.equal(sessionLabel(SESSIONS[0]!), "Lexer work");
  assert.equal(sessionLabel(SESSIONS[1]!), "write the docs please");
  assert.equal(sessionLabel(SESSIONS[2]!), "(no messages yet)");
  assert.equal(sessionLabel(session("x", { firstMessage: "y".repeat(80) })), `${"y".repeat(59)}…`);
});

Deno.test("listingText() numbers the sessions, marks the current one and shows age and turns", () => {
  const now = new Date("2026-01-01T02:30:00.000Z");
  const text = listingText(SESSIONS, "20260102-bbb", now);
  assert.equal(
    text,
    [
      "Sessions of this workspace, newest first (* = current):",
      "  1. 20260103-aaa  Lexer work  (2 h ago, 3 turns)",
      "* 2. 20260102-bbb  write the docs please  (2 h ago, 1 turn)",
      "  3. 20260101-ccc  (no messages yet)  (2 h ago, 0 turns)",
      "Resume one with /resume <number|id|text>",
    ].join("\n"),
  );
  assert.equal(listingText([], "x", now), "No sessions for this workspace yet");
});
