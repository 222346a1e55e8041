import assert from "node:assert/strict";
import type { Fact } from "../../../src/tool/memory/fact.ts";
import { queryTerms, RECALL_MAX_FACTS, recallFacts } from "../../../src/tool/memory/recall.ts";

const NOW = new Date("2026-12-01T00:00:00Z");
let next = 0;

function fact(overrides: Partial<Fact>): Fact {
  const id = `m-${String(++next).padStart(12, "0")}`;
  return {
    id,
    name: id,
    description: "",
    type: "project",
    scope: "project",
    revision: 1,
    created: "2026-11-20T00:00:00.000Z",
    updated: "2026-11-20T00:00:00.000Z",
    status: "active",
    body: "",
    ...overrides,
  };
}

const FACTS = [
  fact({
    name: "deploy",
    description: "How to deploy staging",
    body: "Run make deploy-staging from the root.",
  }),
  fact({
    name: "tests",
    description: "How to run the tests",
    body: "deno task test; the e2e tests need tmux.",
  }),
  fact({ name: "db", description: "Database for local work", body: "Postgres 16 on port 5433, user dev." }),
];

Deno.test("recallFacts() picks the facts the message is about", () => {
  const found = recallFacts(FACTS, "the staging deploy failed, how do I redo it?", { now: NOW });
  assert.deepEqual(found.map((hit) => hit.fact.name), ["deploy"]);
  assert.deepEqual(
    recallFacts(FACTS, "which port does postgres use", { now: NOW }).map((hit) => hit.fact.name),
    [
      "db",
    ],
  );
});

Deno.test("recallFacts() recalls nothing for a generic turn", () => {
  for (const text of ["ok", "continue", "Yes, go ahead.", "thanks!", "好的", "sounds good, keep going"]) {
    assert.deepEqual(queryTerms(text), [], text);
    assert.deepEqual(recallFacts(FACTS, text, { now: NOW }), [], text);
  }
});

Deno.test("recallFacts() ranks a project fact over an equivalent global one, and drops the global", () => {
  const global = fact({
    name: "deploy-g",
    scope: "global",
    description: "How to deploy staging",
    body: "Run make deploy-staging from the root.",
  });
  const found = recallFacts([global, ...FACTS], "deploy staging", { now: NOW });
  assert.deepEqual(found.map((hit) => hit.fact.name), ["deploy"]);
  const other = fact({
    name: "ship",
    scope: "global",
    description: "Deploy staging on Fridays",
    body: "Ask Ann.",
  });
  const mixed = recallFacts([other, ...FACTS], "deploy staging", { now: NOW });
  assert.deepEqual(mixed.map((hit) => hit.fact.name), ["deploy", "ship"]);
});

Deno.test("recallFacts() ranks a stale fact below an equally relevant fresh one", () => {
  const same = { description: "Release steps", body: "Tag the release and push." };
  const stale = fact({ name: "stale", ...same, updated: "2026-06-01T00:00:00.000Z" });
  const ancient = fact({ name: "ancient", ...same, updated: "2024-01-01T00:00:00.000Z" });
  const fresh = fact({ name: "fresh", ...same });
  const found = recallFacts([stale, fresh], "release steps", { now: NOW });
  assert.deepEqual(found.map((hit) => hit.fact.name), ["fresh", "stale"]);
  assert.ok(found[0]!.score > found[1]!.score * 1.5);
  // Alone, an old fact is still recalled; beside fresh ones it falls under the cut.
  assert.deepEqual(recallFacts([ancient], "release steps", { now: NOW }).map((hit) => hit.fact.name), [
    "ancient",
  ]);
  assert.deepEqual(recallFacts([ancient, fresh], "release steps", { now: NOW }).map((hit) => hit.fact.name), [
    "fresh",
  ]);
});

Deno.test("recallFacts() is bounded in count and size, and skips facts already shown", () => {
  const many = Array.from(
    { length: 10 },
    (_, i) =>
      fact({ name: `k${i}`, description: "kubernetes cluster", body: `note ${i} ${"x".repeat(500)}` }),
  );
  const found = recallFacts(many, "kubernetes cluster", { now: NOW });
  assert.ok(found.length <= RECALL_MAX_FACTS);
  assert.ok(found.reduce((sum, hit) => sum + hit.body.length, 0) <= 2400);
  const skipped = recallFacts(many, "kubernetes cluster", {
    now: NOW,
    skip: new Set(found.map((hit) => hit.fact.id)),
  });
  assert.ok(skipped.every((hit) => !found.some((seen) => seen.fact.id === hit.fact.id)));
});
