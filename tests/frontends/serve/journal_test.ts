import assert from "node:assert/strict";
import { Journal, parseFrameId } from "../../../src/frontends/serve/journal.ts";
import type { ReasonixEvent } from "../../../src/control/mod.ts";

const delta = (text: string) => ({ type: "text", text }) as unknown as ReasonixEvent;
const record = (seq: number) => ({ type: "turn_started", turn: 1, text: "x", seq }) as ReasonixEvent;

Deno.test("Journal ids: a record's seq, then <seq>.<n> for events without one", () => {
  const journal = new Journal(4);
  const ids = [
    journal.push(delta("a"), 4),
    journal.push(record(5), 5),
    journal.push(delta("b"), 5),
    journal.push(delta("c"), 5),
    journal.push({ type: "heartbeat", at: "now" }, 6),
    journal.push(record(6), 6),
  ].map((frame) => frame.id);
  assert.deepEqual(ids, ["4.1", "5", "5.1", "5.2", "6.1", "6.2"]);
});

Deno.test("Journal.after() replays exactly the frames after an id it issued", () => {
  const journal = new Journal(0);
  for (let i = 1; i <= 5; i++) journal.push(record(i), i);
  assert.deepEqual(journal.after("2")?.map((f) => f.id), ["3", "4", "5"]);
  assert.deepEqual(journal.after("0")?.map((f) => f.id), ["1", "2", "3", "4", "5"]);
  assert.deepEqual(journal.after("5"), []);
  assert.equal(journal.after("9"), null, "an id it never issued");
  assert.equal(journal.after("nonsense"), null);
});

Deno.test("Journal.after() cannot serve an id from before what it kept", () => {
  const journal = new Journal(10, { limit: 3 });
  assert.equal(journal.after("9"), null, "from before the journal started");
  for (let i = 11; i <= 15; i++) journal.push(record(i), i);
  assert.equal(journal.after("11"), null, "dropped by the limit");
  assert.deepEqual(journal.after("12")?.map((f) => f.id), ["13", "14", "15"]);
});

Deno.test("parseFrameId() reads seq and sub-id", () => {
  assert.deepEqual(parseFrameId("12"), { base: 12, sub: 0 });
  assert.deepEqual(parseFrameId("12.3"), { base: 12, sub: 3 });
  assert.equal(parseFrameId("12.x"), null);
  assert.equal(parseFrameId("-1"), null);
});
