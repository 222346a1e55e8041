import assert from "node:assert/strict";
import { answerOnLines } from "../../../src/frontends/tui/line_questions.ts";
import { setLanguage } from "../../../src/lib/i18n/mod.ts";
import type { Question } from "../../../src/control/events.ts";

const Q: Question = { header: "Db", question: "Which?", options: [{ label: "pg" }, { label: "sqlite" }] };

function lines(...input: string[]) {
  return () => Promise.resolve(input.length ? input.shift()! : null);
}

Deno.test("answerOnLines() takes a number, the Other number then text, or plain text", async () => {
  setLanguage("en");
  const out: string[] = [];
  assert.deepEqual(await answerOnLines([Q], lines("1"), (t) => out.push(t)), [{ labels: ["pg"] }]);
  assert.match(
    out.join(""),
    /\? Db: Which\?\n {2}1\) pg\n {2}2\) sqlite\n {2}3\) Other…\nAnswer with a number 1–3/,
  );
  assert.deepEqual(await answerOnLines([Q], lines("3", "duckdb"), () => {}), [{
    labels: [],
    other: "duckdb",
  }]);
  assert.deepEqual(await answerOnLines([Q], lines("mysql please"), () => {}), [{
    labels: [],
    other: "mysql please",
  }]);
});

Deno.test("answerOnLines() reads out-of-range or several numbers (single choice) as text", async () => {
  assert.deepEqual(await answerOnLines([Q], lines("7"), () => {}), [{ labels: [], other: "7" }]);
  assert.deepEqual(await answerOnLines([Q], lines("1,2"), () => {}), [{ labels: [], other: "1,2" }]);
  const multi = { ...Q, multiSelect: true };
  assert.deepEqual(await answerOnLines([multi], lines("2 1 2"), () => {}), [{ labels: ["pg", "sqlite"] }]);
});

Deno.test("answerOnLines() declines on an empty line or the end of input", async () => {
  assert.equal(await answerOnLines([Q], lines(""), () => {}), "declined");
  assert.equal(await answerOnLines([Q, Q], lines("1"), () => {}), "declined");
  assert.equal(await answerOnLines([Q], lines("3"), () => {}), "declined");
});
