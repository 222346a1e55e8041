import assert from "node:assert/strict";
import { askTool, outcomeText } from "../../../src/tool/builtin/ask.ts";
import type { Asker, AskOutcome, Question } from "../../../src/tool/question.ts";
import { stateContext } from "./_state_context.ts";

const DB = {
  header: "Database",
  question: "Which database?",
  options: [{ label: "PostgreSQL", description: "a server" }, { label: "SQLite" }],
};

/** An Asker that answers from a queue and records what it was asked. */
function asker(outcomes: AskOutcome[]): Asker & { asked: Question[][] } {
  const asked: Question[][] = [];
  return {
    asked,
    ask(questions) {
      asked.push(structuredClone([...questions]));
      return Promise.resolve(outcomes.shift() ?? { kind: "unanswered" });
    },
  };
}

Deno.test("askTool without anyone to ask tells the model to proceed on a stated assumption", async () => {
  const result = await askTool.execute({ questions: [DB] }, stateContext());
  assert.match(result.output, /^No user answered/);
  assert.match(result.output, /best assumption and state it/);
});

Deno.test("askTool passes the questions on and returns the chosen labels and typed text", async () => {
  const desk = asker([{
    kind: "answered",
    answers: [{ labels: ["SQLite"] }, { labels: ["Auth"], other: "also metrics" }],
  }]);
  const features = {
    header: "Features",
    question: "Which features?",
    options: [{ label: "Auth" }, { label: "Logs" }],
    multiSelect: true,
  };
  const result = await askTool.execute({ questions: [DB, features] }, { ...stateContext(), questions: desk });
  assert.equal(
    result.output,
    'The user answered:\n- Database: "SQLite"\n- Features: "Auth", their own answer "also metrics"',
  );
  assert.deepEqual(desk.asked[0]![0], DB);
  assert.equal(desk.asked[0]![1]!.multiSelect, true);
});

Deno.test("askTool reports a declined ask, and a cancelled one as an aborted call", async () => {
  const desk = asker([{ kind: "declined" }, { kind: "cancelled" }]);
  const ctx = { ...stateContext(), questions: desk };
  assert.match((await askTool.execute({ questions: [DB] }, ctx)).output, /^The user declined to answer/);
  await assert.rejects(askTool.execute({ questions: [DB] }, ctx), /cancelled while the question waited/);
});

Deno.test("askTool does not ask an answered decision_id again unless new_evidence says why", async () => {
  const desk = asker([
    { kind: "answered", answers: [{ labels: ["PostgreSQL"] }] },
    { kind: "answered", answers: [{ labels: ["SQLite"] }] },
  ]);
  const ctx = { ...stateContext(), questions: desk };
  await askTool.execute({ questions: [DB], decision_id: "db" }, ctx);
  const again = await askTool.execute({ questions: [DB], decision_id: "db" }, ctx);
  assert.match(again.output, /^Decision "db" was already answered: .*PostgreSQL/s);
  assert.equal(desk.asked.length, 1);
  const fresh = await askTool.execute({
    questions: [DB],
    decision_id: "db",
    new_evidence: "tests need a server",
  }, ctx);
  assert.match(fresh.output, /SQLite/);
  assert.equal(desk.asked.length, 2);
});

Deno.test("askTool's schema takes 1-3 questions of 2-4 options", () => {
  const parse = (value: unknown) => askTool.parameters.safeParse(value).success;
  assert.equal(parse({ questions: [DB] }), true);
  assert.equal(parse({ questions: [] }), false);
  assert.equal(parse({ questions: [DB, DB, DB, DB] }), false);
  assert.equal(parse({ questions: [{ ...DB, options: [{ label: "only" }] }] }), false);
  const five = ["a", "b", "c", "d", "e"].map((label) => ({ label }));
  assert.equal(parse({ questions: [{ ...DB, options: five }] }), false);
});

Deno.test("outcomeText marks a question left without an answer", () => {
  assert.match(outcomeText([DB], { kind: "answered", answers: [] }), /Database: \(no answer\)/);
});
